"""The options of an MCTS searcher are listed once, in the engine (``_native.mcts_options()``,
the core's ``MCTS_OPTIONS``): the binding's keyword arguments, the stub and
``glacier.search`` name the same options with the same defaults, and each option refuses
the values outside the list."""

from __future__ import annotations

import ast
import inspect
import math
from pathlib import Path
from typing import Any

import pytest

import glacier
from glacier import _native, errors, search

OPTIONS = _native.mcts_options()
#: The options are the same for every game: the first of the registry is the example.
GAME = glacier.GAMES[0]
NAMES = [o["name"] for o in OPTIONS]
STUB = Path(search.__file__).with_name("_native.pyi")


def keyword_defaults(signature: inspect.Signature) -> dict[str, Any]:
    return {name: p.default for name, p in signature.parameters.items() if p.kind is inspect.Parameter.KEYWORD_ONLY}


def stub_defaults() -> dict[str, Any]:
    tree = ast.parse(STUB.read_text())
    native = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "NativeSearch")
    new = next(n for n in native.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    return {
        arg.arg: ast.literal_eval(default)
        for arg, default in zip(new.args.kwonlyargs, new.args.kw_defaults)
        if default is not None
    }


def test_the_list_has_every_option_once() -> None:
    assert len(NAMES) == len(set(NAMES)) == 18
    for option in OPTIONS:
        assert option["kind"] in {"choice", "number", "integer", "flag"}
        if option["kind"] == "choice":
            assert option["default"] in option["choices"]


def test_the_binding_takes_the_listed_options_with_their_defaults() -> None:
    native = keyword_defaults(inspect.signature(_native.NativeSearch))
    assert list(native) == NAMES
    for option in OPTIONS:
        assert native[option["name"]] == option["default"], option["name"]


def test_the_stub_declares_the_listed_options_with_their_defaults() -> None:
    stub = stub_defaults()
    assert list(stub) == NAMES
    for option in OPTIONS:
        assert stub[option["name"]] == option["default"], option["name"]


@pytest.mark.parametrize("api", [search.MCTS.__init__, search.mcts])
def test_glacier_search_takes_the_listed_options_with_their_defaults(api: Any) -> None:
    defaults = keyword_defaults(inspect.signature(api))
    # mcts() searches once, so it has no tree to reuse.
    names = [n for n in NAMES if not (api is search.mcts and n == "reuse")]
    assert set(names) <= set(defaults)
    for option in OPTIONS:
        if option["name"] in names:
            assert defaults[option["name"]] == option["api_default"], option["name"]


def test_the_default_exploration_follows_the_selection() -> None:
    by_selection = next(o for o in OPTIONS if o["name"] == "c_puct")["by_selection"]
    assert by_selection == search.DEFAULT_C
    assert set(by_selection) == set(next(o for o in OPTIONS if o["name"] == "selection")["choices"])


def outside(option: dict[str, Any]) -> list[Any]:
    """Values just outside what `option` accepts."""
    kind = option["kind"]
    if kind == "choice":
        return ["nonsense"]
    if kind == "number":
        low = [option["min"]] if option["above"] else [option["min"] - 0.5]
        high = [] if option["max"] is None else [option["max"] + 0.5]
        return [*low, *high, math.nan]
    if kind == "integer":
        low = [option["min"] - 1]
        high = [] if option["max"] is None else [option["max"] + 1]
        return [*low, *high]
    return []


CASES = [(o["name"], bad) for o in OPTIONS for bad in outside(o)]


@pytest.mark.parametrize(("name", "bad"), CASES, ids=[f"{n}={b!r}" for n, b in CASES])
def test_each_option_refuses_values_outside_the_list(name: str, bad: Any) -> None:
    # The temperatures are checked only where they are used.
    needs = {"prior_temperature": {"priors": "heuristic"}, "rollout_temperature": {"rollout_policy": "move_priority"}}
    extra = needs.get(name, {})
    with pytest.raises((errors.InvalidParameterError, OverflowError)) as refused:
        _native.NativeSearch(GAME, **{name: bad, **extra})
    # A negative seed does not fit its 64-bit type: Python's own OverflowError says so.
    if refused.type is not OverflowError:
        assert name in str(refused.value)
    with pytest.raises((errors.InvalidParameterError, OverflowError)):
        search.MCTS(GAME, **{name: bad, **extra})


def test_each_option_accepts_its_bounds() -> None:
    state = glacier.new_game(GAME)
    for option in OPTIONS:
        if option["kind"] == "choice":
            values = option["choices"]
        elif option["kind"] == "number":
            values = [v for v in (option["min"] if not option["above"] else None, option["max"]) if v is not None]
        elif option["kind"] == "integer":
            values = [option["min"]] if option["name"] != "threads" else [option["min"], 2]
        else:
            values = [True, False]
        for value in values:
            if option["name"] == "dirichlet_alpha" and value == 0:
                continue  # only with dirichlet_fraction 0, the default
            searcher = _native.NativeSearch(GAME, **{option["name"]: value})
            assert searcher.search(state, 2)["simulations"] >= 1
