"""Ctrl-C and memory at the boundary, each case in a subprocess of its own (a failure there
cannot hang or kill the test run):

- SIGINT stops every long native call (perft on one thread and on every core, perft without
  bulk counting, perft divide, playouts, a loop of VectorEnv steps) with ``KeyboardInterrupt``
  within half a second, and the CLI with one line and status 130;
- thread counts above the documented maximum are refused, and under a memory limit that
  leaves room for only a few threads the work still comes out right on fewer;
- sizes that cannot be allocated raise ``MemoryError`` instead of aborting the interpreter.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
import textwrap
import time

import psutil
import pytest

import glacier
from conftest import deepest_within
from glacier import search

#: Long calls, interrupted one second in. Each would run for many seconds in any game: the
#: perfts go three plies deeper than the game's bench perft (five with a table), which lasts
#: about as long in every game; the calls are spread over the games, each in one of them.
CALLS = {
    "perft, one thread": "glacier.new_game({game!r}).perft({deep})",
    "perft, every core": "glacier.new_game({game!r}).perft({deep}, threads=0)",
    "perft without bulk counting": "glacier.new_game({game!r}).perft({deep}, bulk=False)",
    "perft with a table, every core": "glacier.new_game({game!r}).perft({deeper}, hash_mb=16, threads=0)",
    "perft divide, one thread": "glacier.new_game({game!r}).perft_divide({deep})",
    "perft divide, every core": "glacier.new_game({game!r}).perft_divide({deep}, threads=0)",
    "playouts, one thread": "glacier.playouts({game!r}, 10**7, threads=1)",
    "playouts, every core": "glacier.playouts({game!r}, 10**7{most})",
    "VectorEnv steps": textwrap.dedent(
        """
        env = glacier.VectorEnv({game!r}, num_envs=100_000, seed=1, threads=0)
        while True:
            env.step(env.sample_actions())
        """
    ),
}


def long_call(game: str, call: str) -> str:
    depth = glacier.game_spec(game).bench.perft[0]
    players = max(glacier.game_spec(game).seats)
    most = f", players={players}" if players != glacier.new_game(game).num_players else ""
    return call.format(game=game, deep=depth + 3, deeper=depth + 5, most=most)


LONG_CALLS = {
    name: long_call(glacier.GAMES[i % len(glacier.GAMES)], call) for i, (name, call) in enumerate(CALLS.items())
}

#: The game whose table is filled by an interrupted perft, and whose work runs under a memory
#: limit: the one of the smallest observation (its environments take the least memory).
GAME = min(glacier.GAMES, key=lambda game: math.prod(glacier.new_game(game).observation_shape))

INTERRUPTED = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    import glacier

    sent = []
    main = threading.get_ident()

    def ctrl_c() -> None:
        time.sleep(1.0)
        sent.append(time.perf_counter())
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=ctrl_c, daemon=True).start()
    try:
        {call}
        print("finished")
    except KeyboardInterrupt:
        print(f"interrupted after {{time.perf_counter() - sent[0]:.3f}}")
    """
)


def run_python(script: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.parametrize("call", list(LONG_CALLS))
def test_ctrl_c_stops_a_long_native_call_within_half_a_second(call: str) -> None:
    # The call is written into the script: code run by exec() that a KeyboardInterrupt
    # leaves would make the interpreter exit by SIGINT even when the exception is caught.
    done = run_python(INTERRUPTED.format(call=LONG_CALLS[call].strip().replace("\n", "\n    ")))
    assert done.returncode == 0, done.stderr
    words = done.stdout.split()
    assert words[:2] == ["interrupted", "after"], done.stdout
    assert float(words[2]) < 0.5


def test_a_table_kept_from_an_interrupted_perft_counts_right() -> None:
    """A count cut short by Ctrl-C stores nothing in the table, so the next count of the
    same size, which reuses that table, still gives the true count."""
    depth, leaves = deepest_within(GAME, 10**6)
    script = INTERRUPTED.format(
        call=long_call(GAME, "glacier.new_game({game!r}).perft({deeper}, hash_mb=16, threads=2)")
    )
    script += (
        f"print(glacier.new_game({GAME!r}).perft({depth}, hash_mb=16), glacier.new_game({GAME!r}).perft({depth}))\n"
    )
    done = run_python(script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), done.stdout
    assert lines[1].split() == [str(leaves), str(leaves)]


def test_ctrl_c_stops_the_cli_in_one_line_with_status_130() -> None:
    cli = psutil.Popen(
        [
            sys.executable,
            "-m",
            "glacier.cli",
            "perft",
            GAME,
            str(glacier.game_spec(GAME).bench.perft[0] + 4),
            "--threads",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Past the imports and into the count: the process has used a second of CPU.
        deadline = time.monotonic() + 60
        while sum(cli.cpu_times()[:2]) < 1.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        cli.send_signal(2)  # SIGINT, what Ctrl-C sends
        out, err = cli.communicate(timeout=10)
    finally:
        if cli.poll() is None:
            cli.kill()
    assert cli.returncode == 130
    assert err == "Interrupted.\n"
    assert out == ""


LIMITED = textwrap.dedent(
    """
    import resource, sys
    import glacier

    # Room for the work (140,000 environments with their kept masks and moves) and a
    # few dozen thread stacks of 2 MiB, not for 256 of them. (With much more room, glibc may
    # abort a thread whose thread-local data it cannot allocate once the stacks have taken
    # the rest: 2 runs in 8 failed so at 160 MiB.)
    with open("/proc/self/status") as status:
        size = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    limit = size + 120 * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    exec(sys.argv[1])
    """
)


def test_a_thread_count_beyond_the_maximum_is_refused() -> None:
    state = glacier.new_game(GAME)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got 500"):
        state.perft(6, threads=500)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got 257"):
        glacier.playouts(GAME, 10, threads=257)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got -1"):
        glacier.VectorEnv(GAME, num_envs=4, threads=-1)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got 300"):
        search.thread_count(300)


def test_pythons_count_of_threads_is_the_engines() -> None:
    """0 means every core this process may use, as the engine counts them (a CPU quota may
    leave fewer than the cores it may run on)."""
    assert 1 <= search.thread_count(0) <= len(os.sched_getaffinity(0))
    assert search.thread_count(3) == 3


def test_under_a_memory_limit_the_threads_that_cannot_be_had_leave_their_work_to_the_others() -> None:
    depth, leaves = deepest_within(GAME, 10**6)
    work = textwrap.dedent(
        """
        game, depth = sys.argv[2], int(sys.argv[3])
        state = glacier.new_game(game)
        print(state.perft(depth, threads=256), sum(state.perft_divide(depth, threads=256).values()), state.perft(depth))
        print(glacier.playouts(game, 2000, seed=3, threads=256).length.sum()
              == glacier.playouts(game, 2000, seed=3, threads=1).length.sum())
        env = glacier.VectorEnv(game, num_envs=70_000, seed=5, threads=256)
        twin = glacier.VectorEnv(game, num_envs=70_000, seed=5, threads=1)
        for _ in range(3):
            a, b = env.step(env.sample_actions()), twin.step(twin.sample_actions())
        print(env.texts() == twin.texts())
        """
    )
    done = run_python(LIMITED, work, GAME, str(depth))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(leaves)] * 3 + ["True", "True"]


@pytest.mark.parametrize(
    "call",
    [
        "glacier.playouts({game!r}, 10**11)",
        "glacier.playouts({game!r}, 10**11, threads=1)",
        "glacier.VectorEnv({game!r}, num_envs=10**11)",
        "glacier.VectorEnv({other!r}, num_envs=2**62)",
    ],
)
def test_a_size_that_cannot_be_allocated_is_a_memory_error(call: str) -> None:
    script = LIMITED.replace(
        "exec(sys.argv[1])", "try:\n    exec(sys.argv[1])\nexcept MemoryError as err:\n    print(err)"
    )
    done = run_python(script, call.format(game=GAME, other=glacier.GAMES[-1]))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("not enough memory for "), done.stdout
