"""glacier.distributed on a real Ray: one local Ray of 2 CPUs shared by this module, plus a
two-node cluster started with ``ray start`` on 127.0.0.1, a worker killed in the middle of a
perft, and bad input (in subprocesses where a fresh driver is needed)."""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ray = pytest.importorskip(
    "ray",
    reason="Ray is not installed (pip install 'glacier-games[ray]'; make test installs it): distributed tests skipped",
)

import glacier  # noqa: E402
from conftest import GAMES, deepest_within, make_state, read_perft_fixtures  # noqa: E402
from glacier import distributed, reference  # noqa: E402
from glacier.errors import (  # noqa: E402
    ClusterConnectionError,
    InvalidParameterError,
    UnknownGameError,
)
from glacier.players import MonteCarloPlayer  # noqa: E402

#: Fixture counts up to this many leaves are recounted on Ray (a few seconds in all).
LEAF_BUDGET = 1_500_000

#: What is checked here means the same in every game; the first of the registry stands for all.
GAME = GAMES[0]


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    """One Ray for the module (starting one costs seconds): 2 CPUs, no dashboard, no usage stats."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_USAGE_STATS_ENABLED", "0")
        ray.init(
            address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
        )
        try:
            yield
        finally:
            ray.shutdown()


def _cases() -> list[Any]:
    cases = []
    for record in read_perft_fixtures():
        fitting = [(d, n) for d, n in record["perft"] if n <= LEAF_BUDGET and d >= 2]
        if fitting:
            depth, leaves = max(fitting)
            cases.append(pytest.param(record, depth, leaves, id=f"{record['id']}-{depth}"))
    return cases


@pytest.mark.parametrize(("record", "depth", "leaves"), _cases())
def test_ray_perft_gives_the_fixture_count(record: dict[str, Any], depth: int, leaves: int) -> None:
    state = make_state(glacier, record)
    for split in sorted({1, min(2, depth), depth - 1}):
        result = distributed.perft(state, depth, split_depth=split, progress=False)
        assert result.nodes == leaves, f"split at {split}"
        assert result.paths == state.perft(split)
        assert result.positions <= result.paths and result.units <= max(1, result.positions)


def test_every_game_is_covered_by_the_fixture_counts() -> None:
    covered = {case.values[0]["game"] for case in _cases()}
    assert covered == set(GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_default_split_and_a_game_name_with_parameters(game: str) -> None:
    params = {"max_plies": 3}
    state = glacier.new_game(game, **params)
    result = distributed.perft(game, 4, progress=False, **params)
    assert result.nodes == state.perft(4) == 0  # the game ends at ply 3: no leaf at ply 4
    deep = distributed.perft(game, 3, progress=False, **params)
    assert deep.nodes == state.perft(3) > 0
    assert 0 <= deep.split_depth <= 1


@pytest.mark.parametrize("game", GAMES)
def test_the_split_merges_transpositions(game: str) -> None:
    state = glacier.new_game(game)
    depth, leaves = deepest_within(game, 30_000)
    positions = distributed.expand(state, depth)
    assert sum(positions.values()) == state.perft(depth) == leaves
    assert len(positions) < leaves  # moves that commute: many sequences, fewer positions
    # Each merged position is what its text says: reread, it counts as the sum of its paths did.
    for text in sorted(positions)[:20]:
        assert glacier.from_text(game, text).text() == text
    units = distributed.pack_units(positions, 10)
    assert sorted(p for unit in units for p in unit) == sorted(positions.items())
    assert max(map(len, units)) - min(map(len, units)) <= 1


@pytest.mark.parametrize("game", GAMES)
def test_verify_counts_every_unit_twice_and_they_agree(game: str) -> None:
    state = glacier.new_game(game)
    depth, _ = deepest_within(game, 150_000)
    seen: list[distributed.PerftProgress] = []
    result = distributed.perft(state, depth, split_depth=2, units=7, verify=True, progress=seen.append)
    assert result.nodes == state.perft(depth)
    assert result.verified and result.mismatches == ()
    finished = [p for p in seen if p.count is not None]
    assert [p.verifying for p in finished] == [False] * result.units + [True] * result.units
    assert sum(p.count.nodes for p in finished if not p.verifying) == result.nodes  # type: ignore[union-attr]
    assert sum(p.count.nodes for p in finished if p.verifying) == result.nodes  # type: ignore[union-attr]


def test_disagreeing_counts_are_reported_unit_by_unit() -> None:
    def count(nodes: int, worker: str) -> distributed.UnitCount:
        return distributed.UnitCount(nodes, nodes, 0.0, 0.0, worker, worker.split("/")[0])

    work = [[("a", 1)], [("b", 2), ("c", 1)]]
    first = [count(10, "n1/1"), count(20, "n1/2")]
    second = [count(10, "n2/3"), count(21, "n2/4")]
    (mismatch,) = distributed.compare_counts(work, first, second)
    assert mismatch == distributed.UnitMismatch(1, 20, 21, ("n1/2", "n2/4"), ("b", "c"))


def _worker_pid(count: distributed.UnitCount) -> int:
    return int(count.worker.rsplit("/", 1)[1])


def test_a_worker_killed_during_a_perft_is_replaced_and_the_count_is_exact() -> None:
    # The least of the long counts the games declare (their bench's perft with a table).
    leaves, game, depth = min(
        (spec.bench.hashed_perft[1], game, spec.bench.hashed_perft[0])
        for game in GAMES
        if (spec := glacier.game_spec(game)).bench.hashed_perft is not None
    )
    state = glacier.new_game(game)
    killed: list[int] = []

    def kill_the_first_worker_that_reports(p: distributed.PerftProgress) -> None:
        # The worker that just finished a unit is handed the next queued one at once, so a
        # kill now lands in the middle of a count.
        if p.count is not None and not killed:
            pid = _worker_pid(p.count)
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    result = distributed.perft(state, depth, split_depth=3, units=12, progress=kill_the_first_worker_that_reports)
    assert killed, "no unit finished"
    assert result.nodes == leaves == state.perft(depth, threads=2)
    assert not Path(f"/proc/{killed[0]}").exists(), "the worker survived its kill"


def test_a_parameter_the_workers_reject_is_a_clear_error_and_stops_the_tasks() -> None:
    state = glacier.new_game(GAME)
    depth, leaves = deepest_within(GAME, 10**7)
    try:
        state.perft(1, hash_mb=1)  # type: ignore[call-arg]
    except TypeError:
        with pytest.raises(InvalidParameterError, match="hash_mb=16: this engine's perft has no transposition table"):
            distributed.perft(state, depth, split_depth=2, hash_mb=16, progress=False)
    else:  # an engine with a transposition table: the count is the count
        assert distributed.perft(state, depth, split_depth=2, hash_mb=16, progress=False).nodes == leaves
    deadline = time.monotonic() + 60
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2, "tasks still hold CPUs after the error"


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"depth": 2, "split_depth": 3}, InvalidParameterError, "depth 2 is below the split depth 3"),
        ({"depth": -1}, InvalidParameterError, "depth must be an integer >= 0"),
        ({"depth": 3, "hash_mb": -1}, InvalidParameterError, "hash_mb must be"),
        ({"depth": 3, "units": 0}, InvalidParameterError, "units must be"),
        ({"depth": 3, "max_plies": -4}, InvalidParameterError, "max_plies"),
        ({"depth": 3, "pieces": 4}, InvalidParameterError, "pieces"),
    ],
)
def test_bad_perft_input_is_refused_before_any_task(kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        distributed.perft(GAME, progress=False, **kwargs)


def test_an_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGameError):
        distributed.perft("go", 3, progress=False)
    with pytest.raises(UnknownGameError):
        distributed.playouts("go", 3, seed=0)
    with pytest.raises(InvalidParameterError, match="with a game name, not with a state"):
        distributed.perft(glacier.new_game(GAME), 3, max_plies=4)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _glacier_cli(*args: str, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "glacier.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_an_unreachable_address_fails_at_once_with_a_clear_error() -> None:
    # A fresh driver (this process is already connected to the module's Ray).
    port = _free_port()
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    started = time.monotonic()
    done = _glacier_cli("perft", GAME, "5", "--ray", f"127.0.0.1:{port}", env=env, timeout=120)
    assert done.returncode == 1
    assert f"cannot reach a Ray cluster at 127.0.0.1:{port}" in done.stderr
    assert time.monotonic() - started < 100  # the probe's timeout, not Ray's minutes of retries
    malformed = _glacier_cli("perft", GAME, "5", "--ray", "nowhere", env=env, timeout=120)
    assert malformed.returncode == 1 and "is not HOST:PORT" in malformed.stderr


def _ray_processes_under(directory: Path) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(directory).encode() in cmdline:
                found.append(int(entry.name))
    return found


def test_a_two_node_cluster_started_with_ray_start(tmp_path: Path) -> None:
    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    assert ray_cli, "the ray command is missing"
    # Ray's socket paths must fit in 107 bytes: a short directory of its own under /tmp.
    temp_dir = Path(tempfile.mkdtemp(prefix="glacier-ray-", dir="/tmp"))
    port = _free_port()
    # A token of its own, so this cluster is closed to anyone else on the machine.
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(16))
    env.pop("RAY_ADDRESS", None)
    common = ["--num-cpus=1", "--disable-usage-stats", "--block"]
    nodes: list[subprocess.Popen[bytes]] = []

    def start(args: list[str], log: Path) -> None:
        with log.open("wb") as out:
            nodes.append(
                subprocess.Popen(
                    [ray_cli, "start", *args, *common],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )

    def wait_for(log: Path, text: str) -> None:
        deadline = time.monotonic() + 90
        while text not in log.read_text(errors="replace"):
            assert nodes[-1].poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, f"{log.name}: no {text!r} in 90 s"
            time.sleep(0.2)

    try:
        start(
            [
                "--head",
                f"--port={port}",
                "--node-ip-address=127.0.0.1",
                "--include-dashboard=false",
                f"--temp-dir={temp_dir}",
            ],
            tmp_path / "head.log",
        )
        wait_for(tmp_path / "head.log", "Ray runtime started")
        start([f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.1"], tmp_path / "worker.log")
        wait_for(tmp_path / "worker.log", "Ray runtime started")
        depth, leaves = deepest_within(GAME, 10**7)
        done = _glacier_cli("perft", GAME, str(depth), "--ray", f"127.0.0.1:{port}", "--verify", env=env, timeout=180)
        assert done.returncode == 0, done.stderr
        assert f"{GAME} perft({depth}) = {leaves}" in done.stdout
        assert "Ray, 2 CPUs" in done.stdout  # one on each node
        assert "all 64 agree" in done.stdout
    finally:
        for node in reversed(nodes):
            node.send_signal(signal.SIGTERM)  # `ray start --block` stops what it started
        for node in nodes:
            try:
                node.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
                node.wait()
    deadline = time.monotonic() + 30
    while _ray_processes_under(temp_dir) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _ray_processes_under(temp_dir), "Ray processes left running"
    shutil.rmtree(temp_dir, ignore_errors=True)


# --- playouts --------------------------------------------------------------------------------


def playout_games(game: str) -> int:
    """A fifth of the games the bench plays, which take about as long in every game."""
    return glacier.game_spec(game).bench.playouts // 5


def _same(a: glacier.Playouts, b: glacier.Playouts) -> None:
    for field in glacier.Playouts._fields:
        x, y = getattr(a, field), getattr(b, field)
        assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), field


def test_a_range_of_games_is_a_batch_with_a_shifted_seed(game: str) -> None:
    # What distributed playouts rest on, checked on the engine alone.
    seed, n, start = 2**64 - 5, 40, 13
    whole = glacier.playouts(game, n, seed=seed, threads=1)
    tail = glacier.playouts(game, n - start, seed=(seed + start * distributed.GAMMA) % 2**64, threads=1)
    for field in glacier.Playouts._fields:
        assert (getattr(whole, field)[start:] == getattr(tail, field)).all(), field


@pytest.mark.parametrize("game", GAMES)
def test_ray_playouts_equal_the_local_ones(game: str) -> None:
    n = playout_games(game)
    expected = glacier.playouts(game, n, seed=11)
    for chunk in (None, 1, 7, n + 5):
        _same(distributed.playouts(game, n, seed=11, chunk=chunk), expected)


def test_ray_playouts_with_a_position_a_cutoff_and_parameters() -> None:
    position = glacier.new_game(GAME)
    position.play(position.legal_moves()[2])
    kwargs: dict[str, Any] = {"position": position.text(), "cutoff": 30, "max_plies": 25}
    _same(
        distributed.playouts(GAME, 333, seed=5, chunk=50, **kwargs),
        glacier.playouts(GAME, 333, seed=5, **kwargs),
    )
    _same(distributed.playouts(GAME, 0, seed=5), glacier.playouts(GAME, 0, seed=5))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": -1}, "seed must be an integer in 0..2\\*\\*64-1"),
        ({"seed": 2**64}, "seed must be"),
        ({"seed": 0, "chunk": 0}, "chunk must be"),
        ({"seed": 0, "max_plies": -1}, "max_plies"),
    ],
)
def test_bad_playouts_input(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        distributed.playouts(GAME, 10, **kwargs)


# --- self-play data ------------------------------------------------------------------------


def _replay(game: str, data: dict[str, Any], **params: Any) -> int:
    """Replays every recorded game with the engine and checks each row against it; the games."""
    games = 0
    rows = [*np.flatnonzero(np.diff(data["game"], prepend=-1) != 0).tolist(), len(data["game"])]
    for first, stop in zip(rows, rows[1:]):
        state = glacier.new_game(game, **params)
        for row in range(first, stop):
            assert data["ply"][row] == len(state.moves)
            assert data["player"][row] == state.current_player
            assert (data["observation"][row] == state.observation()).all()
            legal = state.legal_actions()
            assert data["legal_count"][row] == len(legal)
            assert np.flatnonzero(data["legal_mask"][row]).tolist() == sorted(legal)
            state.apply_action(int(data["action"][row]))
        assert state.is_terminal()
        assert data["returns"][first:stop].tolist() == [state.returns()] * (stop - first)
        games += 1
    return games


#: A game whose moves are one action each, and one whose moves may take several.
SHARDED = [
    next(g for g in GAMES if reference.game_module(g).MAX_CHOSEN_ACTIONS == 1),
    next(g for g in GAMES if reference.game_module(g).MAX_CHOSEN_ACTIONS > 1),
]


@pytest.mark.parametrize("game", SHARDED)
def test_selfplay_shards_hold_the_games_as_played(game: str, tmp_path: Path) -> None:
    run = distributed.selfplay(game, 7, seed=3, out=tmp_path / "a", shard_size=3, progress=False, max_plies=60)
    assert (run.shards, run.played, run.resumed) == (3, 3, 0)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == [
        "manifest.json",
        "shard-00000-of-00003.parquet",
        "shard-00001-of-00003.parquet",
        "shard-00002-of-00003.parquet",
    ]
    data = distributed.load_selfplay(tmp_path / "a")
    assert data["game"].tolist() == sorted(data["game"].tolist())
    assert set(data["game"].tolist()) == set(range(7))
    assert _replay(game, data, max_plies=60) == 7
    assert run.plies == len(data["game"])


def test_selfplay_does_not_depend_on_the_shards_or_the_format(tmp_path: Path) -> None:
    common: dict[str, Any] = {"seed": 8, "progress": False, "max_plies": 40}
    distributed.selfplay(GAME, 6, out=tmp_path / "a", shard_size=4, **common)
    distributed.selfplay(GAME, 6, out=tmp_path / "b", shard_size=1, format="npz", **common)
    a, b = distributed.load_selfplay(tmp_path / "a"), distributed.load_selfplay(tmp_path / "b")
    assert sorted(a) == sorted(b)
    for name in a:
        assert a[name].dtype == b[name].dtype and (a[name] == b[name]).all(), name
    assert (tmp_path / "b" / "shard-00005-of-00006.npz").is_file()


def test_an_interrupted_selfplay_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    common: dict[str, Any] = {"seed": 1, "out": out, "shard_size": 2, "progress": False, "max_plies": 30}
    distributed.selfplay(GAME, 8, **common)
    complete = distributed.load_selfplay(out)
    (out / "shard-00002-of-00004.parquet").unlink()  # as if the run had stopped before it
    (out / "shard-00003-of-00004.parquet").rename(out / "shard-00003-of-00004.parquet.partial")
    with pytest.raises(InvalidParameterError, match="has 2 of 4 shards"):
        distributed.load_selfplay(out)
    assert len(distributed.load_selfplay(out, allow_partial=True)["game"]) < len(complete["game"])
    again = distributed.selfplay(GAME, 8, **common)
    assert (again.played, again.resumed) == (2, 2)
    resumed = distributed.load_selfplay(out)
    for name in complete:
        assert (complete[name] == resumed[name]).all(), name
    nothing = distributed.selfplay(GAME, 8, **common)
    assert (nothing.played, nothing.resumed, nothing.plies) == (0, 4, 0)
    with pytest.raises(InvalidParameterError, match=r"holds another self-play run .*seed"):
        distributed.selfplay(GAME, 8, **{**common, "seed": 2})


def test_selfplay_writes_its_games_as_records(tmp_path: Path) -> None:
    """``record=`` writes every game of the run as a game record, which reads back to the
    games the shards hold; a resumed run writes the whole run again, not twice."""
    from glacier import records

    common: dict[str, Any] = {"seed": 5, "out": tmp_path / "run", "shard_size": 2, "progress": False}
    path = tmp_path / "games.record"
    distributed.selfplay(GAME, 3, record=path, max_plies=30, **common)
    data = distributed.load_selfplay(tmp_path / "run")
    read = list(records.read_records(path))
    assert [r.tags["Round"] for r in read] == ["1", "2", "3"]
    assert all(r.tags["Event"] == "glacier selfplay" for r in read)
    for number, record in enumerate(read):
        replayed = glacier.new_game(GAME, max_plies=30)
        for action in data["action"][data["game"] == number].tolist():
            replayed.apply_action(action)
        assert record.state.moves == replayed.moves and record.state.is_terminal()
        assert record.state.text() == replayed.text() and record.result == records.result_of(replayed)
    distributed.selfplay(GAME, 3, record=path, max_plies=30, **common)
    assert len(list(records.read_records(path))) == 3
    assert distributed.selfplay_records(tmp_path / "run", path, append=True) == 3
    assert len(list(records.read_records(path))) == 6


def test_selfplay_with_the_monte_carlo_player(tmp_path: Path) -> None:
    options = {"playouts": 3}
    distributed.selfplay(
        GAME,
        2,
        player="montecarlo",
        player_options=options,
        seed=4,
        out=tmp_path,
        progress=False,
        max_plies=20,
    )
    data = distributed.load_selfplay(tmp_path)
    assert _replay(GAME, data, max_plies=20) == 2
    # Game 1 is what the player, seeded as selfplay seeds game 1, plays in this process.
    player = MonteCarloPlayer(seed=distributed.player_seed(4, 1), **options)
    state = glacier.new_game(GAME, max_plies=20)
    moves = []
    while not state.is_terminal():
        moves.append(player.choose(state))
        state.play(moves[-1])
    rows = data["action"][data["game"] == 1]
    replayed = glacier.new_game(GAME, max_plies=20)
    for action in rows:
        replayed.apply_action(int(action))
    assert replayed.moves == moves


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"player": "alphazero"}, "unknown player 'alphazero'"),
        ({"shard_size": 0}, "shard_size must be"),
        ({"player_options": {"depth": 3}}, "player_options .* do not suit the player 'random'"),
        ({"format": "csv"}, "format must be"),
        ({"max_plies": -3}, "max_plies"),
    ],
)
def test_bad_selfplay_input(kwargs: dict[str, Any], message: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidParameterError, match=message):
        distributed.selfplay(GAME, 2, seed=0, out=tmp_path, progress=False, **kwargs)
    with pytest.raises(InvalidParameterError, match="not a self-play directory"):
        distributed.load_selfplay(tmp_path / "nothing")


def test_cluster_connection_errors_are_glacier_errors() -> None:
    assert issubclass(ClusterConnectionError, glacier.GlacierError)
