"""A griffe extension for the API reference (mkdocs.yml, mkdocstrings).

glacier's docstrings are written for ``help()`` and doctest: reST roles (``:func:`name```)
and doctest examples after a paragraph. Markdown would run the examples into the paragraph
and read ``[Site "?"]`` in a record as a link, so this turns every doctest example into a
``pycon`` code block and every role into inline code, leaving the docstrings as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:attr|class|data|exc|func|meth|mod|obj):`~?([^`]+)`")
_DIRECTIVE = re.compile(r"\s*# doctest:.*$")


def markdown(text: str) -> str:
    """``text`` with its doctest examples fenced as code and its reST roles as inline code."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].lstrip()
        if not stripped.startswith(">>>"):
            out.append(_ROLE.sub(r"`\1`", lines[i]))
            i += 1
            continue
        indent = lines[i][: len(lines[i]) - len(stripped)]
        if out and out[-1].strip():
            out.append("")
        out.append(f"{indent}```pycon")
        while i < len(lines) and lines[i].strip():
            line = lines[i]
            if line.lstrip().startswith((">>>", "...")):
                line = _DIRECTIVE.sub("", line)
            out.append("" if line.strip() == "<BLANKLINE>" else line)
            i += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Rewrites every docstring with :func:`markdown` once the object tree is built."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
