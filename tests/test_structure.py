"""The shape of the package: one registry per side that agree, one place per game, and
imports that only go one way (no module imports, even lazily, a module that imports it back;
the reference imports nothing of the engine)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import glacier
from glacier import reference

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "python" / "glacier"


def test_the_reference_registry_lists_the_engines_games() -> None:
    assert glacier.GAMES == reference.GAMES
    assert len(set(glacier.GAMES)) == len(glacier.GAMES)


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_game_has_the_same_title_and_parameters_in_both_registries(game: str) -> None:
    spec = glacier.game_spec(game)
    module = reference.game_module(game)
    assert spec.name == module.NAME == game
    assert spec.title == module.TITLE
    ours = [(p.name, p.default, p.min, p.max, p.optional) for p in spec.params]
    theirs = [(p.name, p.default, p.min, p.max, p.optional) for p in module.PARAMS]
    assert ours == theirs
    assert glacier.new_game(game).params == dict(zip([p.name for p in spec.params], [p.default for p in spec.params]))


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_game_has_its_parts(game: str) -> None:
    assert (PACKAGE / "reference" / f"{game}.py").is_file()
    assert (PACKAGE / "svg" / f"{game}.py").is_file()
    assert (ROOT / "docs" / "rules" / f"{game}.md").is_file()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(name: str, path: Path) -> set[str]:
    """The glacier modules that ``name`` imports anywhere in its source (functions included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def add(target: str) -> None:
        if target.split(".")[0] == "glacier" and target != name:
            found.add(target)

    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                # `from package import module` imports the module, not the package's __init__.
                add(submodule if submodule in MODULES or submodule == "glacier._native" else base)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(GRAPH.get(module, ())):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target) :], target] if target in trail else [module, target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(GRAPH):
        if module not in state:
            visit(module, [module])


def test_the_reference_imports_nothing_of_the_engine() -> None:
    for module, targets in GRAPH.items():
        if module.startswith("glacier.reference"):
            outside = {t for t in targets if not t.startswith("glacier.reference") and t != "glacier.errors"}
            assert not outside, f"{module} imports {sorted(outside)}"


def test_the_drawing_and_the_engine_api_do_not_import_the_tools_built_on_them() -> None:
    tools = ("glacier.cli", "glacier.testing", "glacier.bench", "glacier.openspiel", "glacier.gymnasium_env")
    for module in ("glacier", "glacier.batch", "glacier.errors", *[m for m in MODULES if m.startswith("glacier.svg")]):
        assert not {t for t in GRAPH[module] if t.startswith(tools)}, module


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_game_declares_the_same_facts_in_both_twins(game: str) -> None:
    spec = glacier.game_spec(game)
    facts = reference.game_module(game).FACTS
    assert spec._fields[3:] == facts._fields
    for field, ours, theirs in zip(facts._fields, spec[3:], facts):
        assert ours == theirs, f"{game}: {field}"


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_game_names_the_seats_of_every_number_of_players_it_allows(game: str) -> None:
    spec = glacier.game_spec(game)
    players = next((p for p in spec.params if p.name == "players"), None)
    counts = range(players.min, players.max + 1) if players is not None else [glacier.new_game(game).num_players]
    assert sorted(spec.seats) == list(counts)
    for count, names in spec.seats.items():
        assert len(names) == len(set(names)) == count
    for start, (text, _implied) in spec.starts.items():
        assert glacier.new_game(game, start=start).text() == text, start
    for outside, start in spec.kin.items():
        assert glacier.kin(outside) == (game, start)


def test_no_module_of_a_subpackage_imports_the_subpackage_itself() -> None:
    """A subpackage's ``__init__`` runs before any of its modules, and re-exports names from
    them: a module that imports the ``__init__`` back (``from . import render``) would see it
    half made. (The top-level ``glacier`` is the API the tools are built on; that it imports
    none of them is checked above.)"""
    for module, targets in GRAPH.items():
        package = module.rpartition(".")[0]
        if package and package != "glacier" and MODULES.get(package, Path()).name == "__init__.py":
            assert package not in targets, f"{module} imports its own package {package}"


# --- one place per game ------------------------------------------------------------------

GAME_TYPES = {game: "".join(part.title() for part in game.split("_")) for game in glacier.GAMES}
TITLES = {game: glacier.game_spec(game).title for game in glacier.GAMES}


def _own_files(game: str) -> set[str]:
    """The files of ``game`` itself (its Rust folder is matched by prefix)."""
    return {
        f"rust/glacier-core/src/games/{game}/",
        f"python/glacier/reference/{game}.py",
        f"python/glacier/svg/{game}.py",
        f"tests/test_{game}.py",
    }


#: The two registries, which list every game.
REGISTRIES = {"rust/glacier-core/src/games/mod.rs", "python/glacier/reference/__init__.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _games_in_text(text: str) -> set[str]:
    """The games whose registry name (a whole word, or between '-', '/', '.') or title is in
    ``text``, a string literal."""
    return {
        game
        for game in glacier.GAMES
        if re.search(rf"(?<![A-Za-z0-9_]){game}(?![A-Za-z0-9_])", text) or TITLES[game] in text
    }


def _games_named_in_python(path: Path) -> set[str]:
    """The games a Python file names in its code: string literals (not docstrings) holding a
    game's name or title, and identifiers, attributes and imported modules spelt as a game's
    name. Comments are not code."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = _docstrings(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found |= _games_in_text(node.value)
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.alias):
            words = [*node.name.split("."), *([node.asname] if node.asname else [])]
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = node.module.split(".")
        found |= {game for game in glacier.GAMES if game in words}
    return found


def _rust_code(text: str) -> str:
    """``text`` without its comments (string and char literals kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif text[i] == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text[i] == "'" and (text[i + 1] == "\\" or text[i + 2 : i + 3] == "'"):
            j = text.index("'", i + 2)
            out.append(text[i : j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def _games_named_in_rust(path: Path) -> set[str]:
    """The games a Rust file names in its code (comments and doc comments left out): a
    game's module or registry name, its type name (``Kuba``, ``KubaParams``) or its title."""
    code = _rust_code(path.read_text(encoding="utf-8"))
    return {
        game
        for game in glacier.GAMES
        if re.search(rf"\b{game}\b|\b{GAME_TYPES[game]}\w*", code) or TITLES[game] in code
    }


def _code_files() -> list[Path]:
    roots = [ROOT / "python", ROOT / "tests", ROOT / "benches", ROOT / "fuzz", ROOT / "rust"]
    files = [p for root in roots for p in root.rglob("*") if p.suffix in (".py", ".pyi", ".rs")]
    return sorted(p for p in files if "target" not in p.relative_to(ROOT).parts)


def _named_outside_their_files() -> dict[str, set[str]]:
    out = {}
    for path in _code_files():
        rel = path.relative_to(ROOT).as_posix()
        if rel in REGISTRIES:
            continue
        named = _games_named_in_rust(path) if path.suffix == ".rs" else _games_named_in_python(path)
        foreign = {g for g in named if not any(rel == own or rel.startswith(own) for own in _own_files(g))}
        if foreign:
            out[rel] = foreign
    return out


def test_no_file_outside_a_games_own_names_it() -> None:
    """Adding a game means its own files (its Rust folder, its reference, SVG and test modules,
    its rules page), one line in each registry (rust/glacier-core/src/games/mod.rs,
    python/glacier/reference/__init__.py) and its lines in tests/data/perft.txt: nothing else
    names it. The rule, for the code (.py, .pyi, .rs) under python/, tests/, benches/, fuzz/
    and rust/: outside a game's own files and the registries, no string literal holds its
    registry name (``"kuba"``, ``"kuba-start"``) or its title, and no identifier, attribute or
    imported module is spelt as its name, nor (in Rust) as its type (``Kuba``, ``KubaParams``).
    Docstrings and comments are prose, not code: examples there are free, as in docs pages and
    README. Tools reach a game through ``glacier.GAMES``, ``glacier.game_spec`` (its facts) and
    ``glacier.kin`` (the game that plays chess), never by its name."""
    offending = {rel: sorted(games) for rel, games in _named_outside_their_files().items()}
    assert not offending, f"files that name games outside their own: {offending}"
