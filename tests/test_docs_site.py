"""The front door stays tidy: the README is short, what users read holds no placeholder, no
relative link that leads nowhere and no commit hash, and every rules page shows its game in
a picture. (`make docs`, part of `make test`, builds the site with `mkdocs build --strict`.)

Each check is a function of the text, tried on small examples first, so a check that could
never fail is caught as well as a page that breaks it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import glacier

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
README_MAX_LINES = 200
PAGES = [README, ROOT / "CHANGELOG.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}).*?^\1\2[`~]*[ \t]*$", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_PLACEHOLDER = re.compile(r"\b(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|TODO|XXX|FIXME|TBD)\b")
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_IMAGE = re.compile(r"!\[(?:[^\[\]])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|<img\b[^>]*\bsrc=\"([^\"]+)\"")
_HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*\b(?:href|src)=\"([^\"]+)\"")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_HEX = re.compile(r"(?<![\w.-])[0-9a-f]{7,40}(?![\w-])")


def prose(text: str) -> str:
    """``text`` without its code: fenced blocks and inline code spans become blanks (the
    lines stay where they were)."""
    text = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def placeholders(text: str) -> list[str]:
    """Words outside code that look like text someone meant to replace."""
    return _PLACEHOLDER.findall(prose(text))


def link_targets(text: str) -> list[str]:
    """The targets of the Markdown links and images, and of HTML ``href`` and ``src``, outside code."""
    text = prose(text)
    return _LINK.findall(text) + _HTML_LINK.findall(text)


def anchors(text: str) -> set[str]:
    """The anchors of the headings of a Markdown page, as MkDocs (and GitHub, for these
    headings) makes them: lower case, punctuation dropped, spaces as hyphens."""
    slugs = set()
    for title in _HEADING.findall(_FENCE.sub("", text)):
        words = re.sub(r"[^\w\s-]", "", title.replace("`", "")).strip().lower()
        slugs.add(re.sub(r"[-\s]+", "-", words))
    return slugs


def broken_links(page: Path, text: str) -> list[str]:
    """The relative links of ``page`` (text ``text``) whose file, or heading in a Markdown
    file, does not exist."""
    broken = []
    for target in link_targets(text):
        if _SCHEME.match(target):
            continue
        path, _, fragment = target.split("?", 1)[0].partition("#")
        file = page.parent / path
        if path and not file.exists():
            broken.append(target)
        elif fragment and (not path or file.suffix == ".md"):
            found = anchors(file.read_text(encoding="utf-8") if path else text)
            if fragment not in found:
                broken.append(target)
    return broken


def pictures(text: str) -> list[str]:
    """The images ``text`` embeds, outside code."""
    return [a or b for a, b in _IMAGE.findall(prose(text))]


def commit_hashes(text: str) -> list[str]:
    """Runs of 7 to 40 lowercase hex digits that look like a commit hash: digits and letters
    mixed, at least four different characters (so ``a1a1a1a1`` or a number is no hash)."""
    return [
        word
        for word in _HEX.findall(text)
        if re.search(r"\d", word) and re.search(r"[a-f]", word) and len(set(word)) >= 4
    ]


def too_long(text: str) -> bool:
    return len(text.splitlines()) > README_MAX_LINES


# The checks, on small examples.


def test_too_long_is_over_the_limit() -> None:
    assert too_long("line\n" * (README_MAX_LINES + 1))
    assert not too_long("line\n" * README_MAX_LINES)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The table goes here:\n\nBATCHED_TABLE\n", ["BATCHED_TABLE"]),
        ("TODO: say what the ko is.", ["TODO"]),
        ("The engine is XXX times faster.", ["XXX"]),
        ("A ``MAX_THREADS`` limit and `RAY_AUTH_TOKEN`.", []),
        ("```sh\nexport RAY_AUTH_MODE=token\n```\n", []),
        ("~~~\nMAX_THREADS = 256\n~~~\nbut NOT_IN_CODE here", ["NOT_IN_CODE"]),
        ("KUBA, the ICEAGE seed, E and UCI are words.", []),
    ],
)
def test_placeholders_are_found_outside_code(text: str, found: list[str]) -> None:
    assert placeholders(text) == found


def test_broken_links_are_found(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# There\n\n## The `perft` table, in full\n")
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "start.svg").write_text("<svg/>")
    page = tmp_path / "page.md"
    text = (
        "# Here\n\n[fine](there.md#there) and [gone](missing.md), ![fine](pictures/start.svg),\n"
        "[fine](there.md#the-perft-table-in-full) [no heading](there.md#nowhere) [no heading](#gone)\n"
        "![gone](pictures/missing.svg), [a link over\ntwo lines](lost.md), [web](https://example.org),\n"
        '[anchor](#here), `[in code](nowhere.md)`, <img src="pictures/nope.svg" width="9">\n'
        "```\n[in a block](nowhere.md)\n```\n"
    )
    assert broken_links(page, text) == [
        "missing.md",
        "there.md#nowhere",
        "#gone",
        "pictures/missing.svg",
        "lost.md",
        "pictures/nope.svg",
    ]
    assert broken_links(page, "[fine](there.md) ![fine](pictures/start.svg)") == []


def test_pictures_are_found() -> None:
    assert pictures('![A board](../pictures/board-start.svg)\n<img src="a.svg" alt="A">') == [
        "../pictures/board-start.svg",
        "a.svg",
    ]
    assert pictures("[a link, not a picture](../pictures/board-start.svg)\n```\n![x](y.svg)\n```") == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("measured against a build of commit deaa3ae", ["deaa3ae"]),
        ("merged as 0a19ad1f3c2e4b5d6a7b8c9d0e1f2a3b4c5d6e7f.", ["0a19ad1f3c2e4b5d6a7b8c9d0e1f2a3b4c5d6e7f"]),
        ("perft(7) = 1152094123, seed 0x4B554241, 2026-12-01", []),
        ("'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1...' is not a move", []),
        ("e2e4, deadbeef, facade, b10/0-d8xd8/1=c5/2", []),
    ],
)
def test_commit_hashes_are_found(text: str, found: list[str]) -> None:
    assert commit_hashes(text) == found


# The checks, on the real pages.


def test_the_readme_is_short() -> None:
    assert not too_long(README.read_text(encoding="utf-8")), f"README.md is over {README_MAX_LINES} lines"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_placeholders(page: Path) -> None:
    assert placeholders(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    assert broken_links(page, page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_commit_hashes(page: Path) -> None:
    assert commit_hashes(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("game", glacier.GAMES)
def test_every_rules_page_shows_its_game(game: str) -> None:
    page = ROOT / "docs" / "rules" / f"{game}.md"
    shown = pictures(page.read_text(encoding="utf-8"))
    assert shown, f"{page.relative_to(ROOT)} embeds no picture"
    assert all((page.parent / target).is_file() for target in shown)
