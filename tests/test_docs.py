"""The examples in the docstrings run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import glacier
import glacier.batch
import glacier.gymnasium_env
import glacier.nets
import glacier.openspiel
import glacier.pettingzoo_env
import glacier.reference

MODULES = [
    glacier,
    glacier.batch,
    glacier.nets,
    glacier.reference,
    glacier.openspiel,
    glacier.gymnasium_env,
    glacier.pettingzoo_env,
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, raise_on_error=False, report=True)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


DOCS = Path(__file__).parent.parent / "docs"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_documentation_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
