"""The shape of the package: one registry per side that agree, one place per game, and
imports that only go one way (no module imports, even lazily, a module that imports it back;
the reference imports nothing of the engine)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Optional

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
    """Every file docs/architecture.md lists under "Adding a game"."""
    rust = ROOT / "rust" / "glacier-core" / "src" / "games" / game
    for part in ("mod.rs", "text.rs", "encoding.rs", "heuristic.rs", "facts.rs"):
        assert (rust / part).is_file(), part
    assert (PACKAGE / "reference" / f"{game}.py").is_file()
    assert (PACKAGE / "svg" / f"{game}.py").is_file()
    nets = PACKAGE / "nets" / "baselines"
    assert (nets / f"{game}.safetensors").is_file() or list(nets.glob(f"{game}-*p.safetensors"))
    for page in ("rules", "engine"):
        assert (ROOT / "docs" / page / f"{game}.md").is_file()
        assert f": {page}/{game}.md" in (ROOT / "mkdocs.yml").read_text(), f"{page}/{game}.md is not in the nav"
    assert f"| `{game}` |" in (ROOT / "README.md").read_text(), "no row in README's games table"
    assert f"\ngame {game}\n" in (ROOT / "tests" / "data" / "perft.txt").read_text()
    assert (ROOT / "tests" / f"test_{game}.py").is_file()


# --- imports -----------------------------------------------------------------------------


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(package: Path) -> dict[str, Path]:
    """The modules of the package in the folder ``package``, by name."""
    return {_module_name(package.parent, p): p for p in package.rglob("*.py")}


def _ancestors(name: str) -> list[str]:
    """The packages that hold ``name``, outermost first (``a.b.c``: ``a``, ``a.b``)."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _imports(name: str, path: Path, modules: dict[str, Path], compiled: frozenset[str] = frozenset()) -> set[str]:
    """The modules of the package that importing or running ``name`` may import: every
    import statement in its source, those inside functions included, and for each the
    ``__init__`` of every package it runs on the way (importing ``a.b.c`` runs ``a`` and
    ``a.b`` first), but those of the packages that hold ``name`` itself, which have run
    before it. ``compiled`` names the package's modules that have no source."""
    root = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    running = {*_ancestors(name), name}
    found: set[str] = set()

    def add(target: str) -> None:
        if target.split(".")[0] != root:
            return
        found.update(a for a in _ancestors(target) if a not in running)
        if target != name:
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
                # `from package import module` imports the module; `from package import name`
                # the package's __init__.
                add(submodule if submodule in modules or submodule in compiled else base)
    return found


MODULES = _modules(PACKAGE)
#: The modules of glacier that are compiled, not written in Python.
COMPILED = frozenset({"glacier._native"})
GRAPH = {name: _imports(name, path, MODULES, COMPILED) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import cycle of ``graph``, each once, from its least module."""
    found = []

    def walk(start: str, module: str, trail: list[str]) -> None:
        for target in sorted(graph.get(module, ())):
            if target == start:
                found.append([*trail, start])
            elif target > start and target not in trail:
                walk(start, target, [*trail, target])

    for start in sorted(graph):
        walk(start, start, [start])
    return found


@pytest.mark.parametrize(
    ("files", "cycles"),
    [
        # pkg.a's lazy import runs pkg.b's __init__, which imports pkg.a back.
        (
            {
                "pkg/__init__.py": "",
                "pkg/a.py": "def f():\n    from .b import leaf\n",
                "pkg/b/__init__.py": "from . import heavy\n",
                "pkg/b/heavy.py": "from .. import a\n",
                "pkg/b/leaf.py": "",
            },
            [["pkg.a", "pkg.b", "pkg.b.heavy", "pkg.a"]],
        ),
        # A subpackage's modules import one another and its __init__ their names: no cycle.
        (
            {
                "pkg/__init__.py": "from .b import x\n",
                "pkg/b/__init__.py": "from .x import x\n",
                "pkg/b/x.py": "import pkg.b.y\nx = 1\n",
                "pkg/b/y.py": "",
            },
            [],
        ),
    ],
)
def test_the_import_model_counts_lazy_imports_and_package_inits(
    tmp_path: Path, files: dict[str, str], cycles: list[list[str]]
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    modules = _modules(tmp_path / "pkg")
    assert _cycles({name: _imports(name, path, modules) for name, path in modules.items()}) == cycles


def test_no_module_imports_a_module_that_imports_it_back() -> None:
    cycles = _cycles(GRAPH)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


# --- the layers, as docs/architecture.md states them --------------------------------------

ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    return ARCHITECTURE.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _names(text: str) -> list[str]:
    return re.findall(r"`(glacier[\w.]*)`", text)


def _layers() -> list[tuple[str, list[str], Optional[list[str]]]]:
    """The table of "What may import what", lowest layer first: each layer's name, its
    modules, and the modules it may import besides its own (None: every layer above it)."""
    rows = [line for line in _section("What may import what").splitlines() if line.startswith("| ")]
    layers = []
    for row in rows[1:]:
        name, modules, imports = (cell.strip() for cell in row.strip().strip("|").split("|"))
        layers.append((name, _names(modules), None if imports == "every layer above" else _names(imports)))
    return layers


LAYERS = _layers()


def _matches(module: str, name: str) -> bool:
    # `glacier` is the package's __init__ (the API); any other name is a module or a package.
    return module == name or (name != "glacier" and module.startswith(name + "."))


def _layer_of(module: str) -> int:
    found = [i for i, (_, names, _) in enumerate(LAYERS) if any(_matches(module, n) for n in names)]
    assert len(found) == 1, f"{module} is in {len(found)} layers of docs/architecture.md"
    return found[0]


def test_the_layer_table_is_read() -> None:
    names = [name for name, _, _ in LAYERS]
    assert names[0] == "the engine" and names[-1] == "the tools" and len(set(names)) == len(names) >= 10
    assert LAYERS[0][1] == ["glacier._native", "glacier.errors"] and LAYERS[0][2] == []


def test_every_module_is_in_one_layer() -> None:
    for module in [*MODULES, *COMPILED]:
        _layer_of(module)


def test_every_import_goes_to_its_own_layer_or_one_it_may_import() -> None:
    wrong = []
    for module, targets in GRAPH.items():
        layer = _layer_of(module)
        name, _, allowed = LAYERS[layer]
        for target in sorted(targets):
            other = _layer_of(target)
            if other != layer and not (other < layer if allowed is None else any(_matches(target, n) for n in allowed)):
                wrong.append(f"{module} ({name}) imports {target} ({LAYERS[other][0]})")
    assert not wrong, "\n".join(wrong)


def _tool_imports() -> dict[str, set[str]]:
    """The imports among the tools the page lists (``- `glacier.X` imports `glacier.Y`, ...``)."""
    found = {}
    for line in _section("What may import what").splitlines():
        match = re.match(r"\s*- `(glacier[\w.]*)` imports (.*)", line)
        if match:
            found[match.group(1)] = set(_names(match.group(2)))
    return found


def test_a_tool_imports_another_only_where_the_page_says() -> None:
    tools = LAYERS[-1][1]

    def tool(module: str) -> Optional[str]:
        return next((name for name in tools if _matches(module, name)), None)

    found: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        own = tool(module)
        others = {t for t in map(tool, targets) if t is not None and t != own}
        if own is not None and others:
            found.setdefault(own, set()).update(others)
    assert found == _tool_imports() != {}


def test_the_reference_imports_nothing_of_the_engine() -> None:
    for module, targets in GRAPH.items():
        if module.startswith("glacier.reference"):
            outside = {t for t in targets if not t.startswith("glacier.reference") and t != "glacier.errors"}
            assert not outside, f"{module} imports {sorted(outside)}"


def test_a_player_loads_a_net_with_numpy_alone() -> None:
    """A baseline player loads its game's net and searches with it, and nothing of
    training, self-play or Ray has been imported, nor JAX or Ray themselves."""
    script = (
        "import sys, glacier\n"
        "from glacier.players import from_spec\n"
        f"state = glacier.new_game({glacier.GAMES[0]!r})\n"
        "assert from_spec('baseline:4').choose(state) in state.legal_moves()\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True)
    loaded = set(run.stdout.split())
    heavy = ("glacier.learn", "glacier.selfplay", "glacier.distributed", "jax", "optax", "ray")
    assert "glacier.nets" in loaded
    assert not {m for m in loaded if m in heavy or m.startswith(tuple(h + "." for h in heavy))}


def test_the_binding_imports_no_python_module_of_glacier_but_errors() -> None:
    code = "".join(_rust_code(p.read_text()) for p in sorted((ROOT / "rust" / "glacier-py").rglob("*.rs")))
    imported = set(re.findall(r'\bimport(?:_bound)?\(\s*"(glacier[\w.]*)"', code))
    exceptions = set(re.findall(r"\bimport_exception!\(\s*(glacier[\w.]*)\s*,", code))
    assert exceptions == {"glacier.errors"} and imported <= {"glacier._native"}, imported


def test_every_kin_with_comparisons_is_a_kin_a_game_declares() -> None:
    from glacier import comparisons

    declared = {kin for game in glacier.GAMES for kin in glacier.game_spec(game).kin}
    assert set(comparisons.BY_KIN) <= declared


KIN_NAMES = sorted({kin for game in glacier.GAMES for kin in glacier.game_spec(game).kin})


@pytest.mark.parametrize("tool", ["cli.py", "bench.py"])
def test_the_command_line_and_the_benchmarks_name_no_kin(tool: str) -> None:
    """Kin are reached through the games' facts and ``glacier.comparisons``."""
    tree = ast.parse((PACKAGE / tool).read_text())
    docstrings = _docstrings(tree)
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            words |= set(re.findall(r"\w+", node.value))
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, (ast.Attribute, ast.FunctionDef)):
            words.add(node.attr if isinstance(node, ast.Attribute) else node.name)
    named = {kin for kin in KIN_NAMES for word in words if kin in word}
    assert not named, f"{tool} names {sorted(named)}"


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_game_declares_the_same_facts_in_both_twins(game: str) -> None:
    spec = glacier.game_spec(game)
    facts = reference.game_module(game).FACTS
    assert spec._fields[3:] == facts._fields
    for field, ours, theirs in zip(facts._fields, spec[3:], facts):
        assert ours == theirs, f"{game}: {field}"


@pytest.mark.parametrize("game", glacier.GAMES)
def test_each_games_facts_rs_is_written_from_its_reference_facts(game: str) -> None:
    """The facts are declared once, in the reference module: ``python tests/facts_rs.py``
    writes the engine's facts.rs from them (and the test above checks the built engine)."""
    import facts_rs

    assert facts_rs.path(game).read_text() == facts_rs.source(game), "run python tests/facts_rs.py"


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
    none of them is checked by the layers.)"""
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
