"""The shared perft fixtures (tests/data/perft.txt), through both implementations.

The engine runs every count up to NATIVE_MAX_NODES; the pure-Python reference runs the
counts it can do quickly (up to REFERENCE_MAX_NODES leaves). The cargo tests read the
same file.
"""

from __future__ import annotations

import pytest

import glacier
from conftest import GAMES, make_state, read_perft_fixtures
from glacier import reference

NATIVE_MAX_NODES = 200_000_000
REFERENCE_MAX_NODES = 300_000

FIXTURES = [r for r in read_perft_fixtures() if r["game"] in GAMES]
CASES = [
    pytest.param(impl, r, depth, leaves, id=f"{impl.__name__.split('.')[-1]}-{r['id']}-{depth}")
    for r in FIXTURES
    for depth, leaves in r["perft"]
    for impl, limit in ((glacier, NATIVE_MAX_NODES), (reference, REFERENCE_MAX_NODES))
    if leaves <= limit
]


def test_every_built_game_has_fixtures() -> None:
    assert {r["game"] for r in FIXTURES} == set(GAMES)


@pytest.mark.parametrize(("impl", "record", "depth", "leaves"), CASES)
def test_perft(impl: object, record: dict, depth: int, leaves: int) -> None:
    assert make_state(impl, record).perft(depth) == leaves


HASHED_CASES = [
    pytest.param(r, depth, leaves, id=f"{r['id']}-{depth}")
    for r in FIXTURES
    for depth, leaves in r["perft"]
    if leaves <= NATIVE_MAX_NODES // 4
]


@pytest.mark.parametrize(("record", "depth", "leaves"), HASHED_CASES)
def test_perft_with_a_transposition_table(record: dict, depth: int, leaves: int) -> None:
    state = make_state(glacier, record)
    # A table of 1 MiB (slots overwritten often), then a call that reuses it, then threads.
    assert state.perft(depth, hash_mb=1) == leaves
    assert state.perft(depth, hash_mb=1) == leaves
    assert state.perft(depth, hash_mb=2, threads=2) == leaves


def test_perft_table_arguments_are_checked() -> None:
    record = FIXTURES[0]
    depth, leaves = min(record["perft"], key=lambda count: abs(count[1] - 1000))
    state = make_state(glacier, record)
    for bad in ({"hash_mb": -1}, {"hash_mb": 2**21}, {"hash_mb": 4, "bulk": False}):
        with pytest.raises(glacier.errors.InvalidParameterError, match="hash_mb"):
            state.perft(depth, **bad)
    # No table (hash_mb=0) goes with counting the last ply move by move.
    assert state.perft(depth, hash_mb=0, bulk=False) == leaves
