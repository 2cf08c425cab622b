"""The shape of the package: one registry per side that agree, one place per game, and
imports that only go one way (no module imports, even lazily, a module that imports it back;
the reference imports nothing of the engine)."""

from __future__ import annotations

import ast
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
