"""What users read stands alone: the README, the docs and the site's configuration, the Python
package (docstrings and messages) and the Rust crates (their doc comments ship in the sdist)
name no document or file from outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
READ_BY_USERS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "pyproject.toml",
    ROOT / "mkdocs.yml",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "docs").rglob("*.py")),
    *sorted((ROOT / "python").rglob("*.py")),
    *sorted((ROOT / "python").rglob("*.pyi")),
    *sorted((ROOT / "rust").rglob("*.rs")),
    *sorted((ROOT / "rust").rglob("Cargo.toml")),
]
OUTSIDE = re.compile(r"RULINGS|/work/|\bseeds/|\bseed (?:rule ?book|rule text|text)|the seed's", re.IGNORECASE)


def test_nothing_users_read_names_a_file_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in READ_BY_USERS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE.search(line)
    ]
    assert READ_BY_USERS and not found, "\n".join(found)


def test_the_readme_installs_the_distribution_under_its_own_name() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    installs = re.findall(r"^pip install ([^\n#]+)", readme, re.MULTILINE)
    assert installs
    for command in installs:
        target = command.split()[-1].strip("\"'")
        assert target.startswith((".", "dist/glacier_games-", "glacier-games")), command
    assert 'name = "glacier-games"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
