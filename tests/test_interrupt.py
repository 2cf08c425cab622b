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

import subprocess
import sys
import textwrap
import time

import psutil
import pytest

#: Long calls (each would run for many seconds), interrupted one second in.
LONG_CALLS = {
    "perft, one thread": "glacier.new_game('kuba').perft(9)",
    "perft, every core": "glacier.new_game('kuba').perft(9, threads=0)",
    "perft without bulk counting": "glacier.new_game('kuba').perft(9, bulk=False)",
    "perft with a table, every core": "glacier.new_game('kuba').perft(12, hash_mb=16, threads=0)",
    "perft divide, one thread": "glacier.new_game('kuba').perft_divide(9)",
    "perft divide, every core": "glacier.new_game('ice_age_chess').perft_divide(8, threads=0)",
    "playouts, one thread": "glacier.playouts('kuba', 10**7, threads=1)",
    "playouts, every core": "glacier.playouts('martian_chinese_checkers', 10**7, players=6)",
    "VectorEnv steps": textwrap.dedent(
        """
        env = glacier.VectorEnv('ice_age_chess', num_envs=100_000, seed=1, threads=0)
        while True:
            env.step(env.sample_actions())
        """
    ),
}

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
    script = INTERRUPTED.format(call="glacier.new_game('kuba').perft(12, hash_mb=16, threads=2)")
    script += "print(glacier.new_game('kuba').perft(6, hash_mb=16), glacier.new_game('kuba').perft(6))\n"
    done = run_python(script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("interrupted after"), done.stdout
    assert lines[1].split() == ["784020", "784020"]


def test_ctrl_c_stops_the_cli_in_one_line_with_status_130() -> None:
    cli = psutil.Popen(
        [sys.executable, "-m", "glacier.cli", "perft", "kuba", "11", "--threads", "0"],
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

    # Room for the work (140,000 Kuba environments with their kept masks and moves) and a
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
    import glacier

    state = glacier.new_game("kuba")
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got 500"):
        state.perft(6, threads=500)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got 257"):
        glacier.playouts("kuba", 10, threads=257)
    with pytest.raises(glacier.InvalidParameterError, match="threads must be between 0 and 256, got -1"):
        glacier.VectorEnv("kuba", num_envs=4, threads=-1)


def test_under_a_memory_limit_the_threads_that_cannot_be_had_leave_their_work_to_the_others() -> None:
    work = textwrap.dedent(
        """
        state = glacier.new_game("kuba")
        print(state.perft(6, threads=256), sum(state.perft_divide(6, threads=256).values()), state.perft(6))
        print(glacier.playouts("kuba", 2000, seed=3, threads=256).length.sum()
              == glacier.playouts("kuba", 2000, seed=3, threads=1).length.sum())
        env = glacier.VectorEnv("kuba", num_envs=70_000, seed=5, threads=256)
        twin = glacier.VectorEnv("kuba", num_envs=70_000, seed=5, threads=1)
        for _ in range(3):
            a, b = env.step(env.sample_actions()), twin.step(twin.sample_actions())
        print(env.texts() == twin.texts())
        """
    )
    done = run_python(LIMITED, work)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["784020", "784020", "784020", "True", "True"]


@pytest.mark.parametrize(
    "call",
    [
        "glacier.playouts('kuba', 10**11)",
        "glacier.playouts('kuba', 10**11, threads=1)",
        "glacier.VectorEnv('kuba', num_envs=10**11)",
        "glacier.VectorEnv('ice_age_chess', num_envs=2**62)",
    ],
)
def test_a_size_that_cannot_be_allocated_is_a_memory_error(call: str) -> None:
    script = LIMITED.replace(
        "exec(sys.argv[1])", "try:\n    exec(sys.argv[1])\nexcept MemoryError as err:\n    print(err)"
    )
    done = run_python(script, call)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("not enough memory for "), done.stdout
