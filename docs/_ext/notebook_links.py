"""A MkDocs hook (mkdocs.yml, ``hooks``): the links of a notebook page to other pages.

A notebook links to pages by their files (``rules/kuba.md``), as Jupyter and a repository
browser follow them; MkDocs rewrites such links in Markdown pages only, not in the HTML that
mkdocs-jupyter makes of a notebook. This rewrites them there to the pages' URLs, and a link
to a file that is not a page is a warning (an error under ``mkdocs build --strict``).
"""

from __future__ import annotations

import logging
import posixpath
import re
from typing import Any

log = logging.getLogger("mkdocs.hooks.notebook_links")

_MD_LINK = re.compile(r'href="(?![a-z][a-z0-9+.-]*:|/|#)([^"#]+\.md)(#[^"]*)?"')


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    if not page.file.src_uri.endswith(".ipynb"):
        return html

    def page_url(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), match.group(1)))
        linked = files.get_file_from_path(target)
        if linked is None:
            log.warning(f"{page.file.src_uri} links to {match.group(1)}, which is not a page of the site")
            return match.group(0)
        return f'href="{linked.url_relative_to(page.file)}{match.group(2) or ""}"'

    return _MD_LINK.sub(page_url, html)
