"""The package as users get it: ``make dist`` writes the sdist and, built from it, the wheel,
manylinux2014 (glibc 2.17) on Linux, which auditwheel accepts; the wheel installs into a
fresh virtual environment whose PATH has neither cargo nor rustc, and runs there, outside
the source tree, the smoke test of tests/smoke.py (every game's perft, the searches, the
shipped nets, ``glacier serve`` answering).

The build takes minutes, so its sdist and wheel are kept in target/wheel-test/, under a hash
of the sdist's contents (every source file the wheel is built from), the toolchain's
versions and this Python's: a clean clone builds once, a run with the same sources builds
nothing."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from importlib import metadata
from pathlib import Path

import pytest

import glacier

ROOT = Path(__file__).parent.parent
DIST = "glacier_games"  # the distribution glacier-games, as file names write it
CACHE = ROOT / "target" / "wheel-test"
BIN = Path(sys.executable).parent
LINUX_X86_64 = sys.platform == "linux" and sysconfig.get_platform() == "linux-x86_64"


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 2400) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points Python at the development tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return {**env, **extra}


def tool(name: str) -> str:
    found = shutil.which(name, path=str(BIN)) or shutil.which(name)
    assert found, f"{name} is installed with the development tools (make dev)"
    return found


def sdist_digest(sdist: Path) -> str:
    """A hash of the files of ``sdist`` (names and contents, not their times)."""
    digest = hashlib.sha256()
    with tarfile.open(sdist) as archive:
        for member in sorted(archive.getmembers(), key=lambda m: m.name):
            digest.update(member.name.encode() + b"\0")
            if member.isfile():
                data = archive.extractfile(member)
                assert data is not None
                digest.update(hashlib.sha256(data.read()).digest())
    return digest.hexdigest()


def sdist_names(sdist: Path) -> set[str]:
    with tarfile.open(sdist) as archive:
        return {name.partition("/")[2] for name in archive.getnames()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the wheel of ``make dist`` for these sources (built once, then kept)."""
    probe = tmp_path_factory.mktemp("sdist")
    run(tool("maturin"), "sdist", "-o", probe, cwd=ROOT)
    [sdist] = probe.glob(f"{DIST}-*.tar.gz")
    versions = [run(tool("maturin"), "--version", cwd=ROOT), run("rustc", "--version", cwd=ROOT), sys.version]
    key = hashlib.sha256("\n".join([sdist_digest(sdist), *versions]).encode()).hexdigest()[:20]
    out = CACHE / key
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    # pytest-xdist may run this module's tests in several workers: one builds, the others wait.
    with open(CACHE.parent / "wheel-test.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build_once(out)


def build_once(out: Path) -> tuple[Path, Path]:
    """The sdist and wheel kept in ``out``, built there by ``make dist`` if they are not."""
    wheels = list(out.glob(f"{DIST}-*.whl"))
    if not wheels:
        shutil.rmtree(CACHE, ignore_errors=True)  # a build of older sources is of no more use
        # What the wheel holds and does is checked here, not how well the release profile
        # optimises: without its whole-program LTO the build takes half as long.
        env = clean_env(
            PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}",
            CARGO_TARGET_DIR=str(ROOT / "target" / "wheel-test-cargo"),
            CARGO_PROFILE_RELEASE_LTO="off",
            CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16",
        )
        run("make", "--no-print-directory", "dist", f"DIST={out}", cwd=ROOT, env=env)
        wheels = list(out.glob(f"{DIST}-*.whl"))
    [wheel] = wheels
    [sdist] = out.glob(f"{DIST}-*.tar.gz")
    return sdist, wheel


def test_the_sdist_holds_what_the_wheel_is_built_from(built: tuple[Path, Path]) -> None:
    sdist, _ = built
    names = sdist_names(sdist)
    needed = {"pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "python/glacier/__init__.py"}
    needed |= {f"docs/rules/{game}.md" for game in glacier.GAMES}
    needed |= {"rust/glacier-core/src/lib.rs", "rust/glacier-py/src/lib.rs", ".cargo/config.toml"}
    assert needed <= names, f"missing from the sdist: {sorted(needed - names)}"


@pytest.mark.skipif(not LINUX_X86_64, reason="make dist writes a manylinux wheel on Linux x86-64")
def test_the_wheel_is_manylinux2014_and_auditwheel_takes_it(built: tuple[Path, Path]) -> None:
    _, wheel = built
    cpython = f"cp{sys.version_info.major}{sys.version_info.minor}"
    tags = wheel.name.removesuffix(".whl").split("-")[2:]
    assert tags[:2] == [cpython, cpython], wheel.name  # built for this CPython version's own ABI
    assert "manylinux_2_17_x86_64" in tags[2].split("."), wheel.name
    shown = " ".join(run(tool("auditwheel"), "show", wheel, cwd=ROOT).split())
    assert 'is consistent with the following platform tag: "manylinux_2_17_x86_64"' in shown, shown


def fresh_venv(where: Path, wheel: Path) -> Path:
    """A virtual environment at ``where`` with ``wheel`` (and its dependencies) installed."""
    run(sys.executable, "-m", "venv", where, cwd=where.parent, env=clean_env())
    python = where / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=where, env=clean_env())
    return python


def without_rust(venv: Path) -> dict[str, str]:
    """The environment of a machine with no Rust: PATH is the venv's scripts and the
    directories of the system's own commands that hold neither cargo nor rustc."""
    system = [d for d in os.environ["PATH"].split(os.pathsep) if d and not Path(d).is_relative_to(Path.home())]
    system = [d for d in system if not any((Path(d) / name).exists() for name in ("cargo", "rustc"))]
    path = os.pathsep.join([str(venv / "bin"), *system])
    assert shutil.which("cargo", path=path) is None and shutil.which("rustc", path=path) is None
    return clean_env(PATH=path, CARGO_HOME="/nonexistent", RUSTUP_HOME="/nonexistent")


@pytest.mark.skipif(not LINUX_X86_64, reason="make dist writes a manylinux wheel on Linux x86-64")
def test_the_wheel_installs_and_runs_without_rust(built: tuple[Path, Path], tmp_path: Path) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    python = fresh_venv(venv, wheel)
    env = without_rust(venv)
    work = tmp_path / "elsewhere"
    work.mkdir()
    shutil.copy(ROOT / "tests" / "smoke.py", work)
    shutil.copy(ROOT / "tests" / "data" / "perft.txt", work)
    out = run(python, "smoke.py", "perft.txt", cwd=work, env=env, timeout=600)
    assert f"from {venv}" in out.splitlines()[0], "glacier is imported from the fresh environment"
    assert out.rstrip().endswith("smoke test passed") and "FAILED" not in out

    script = (
        "import importlib.metadata as m, glacier.web.app as app\n"
        "print(m.metadata('glacier-games')['Name'], sorted(m.metadata('glacier-games').get_all('Provides-Extra')))\n"
        "print(sorted(p.name for p in app.STATIC.iterdir()))\n"
    )
    lines = run(python, "-c", script, cwd=work, env=env).splitlines()
    extras = sorted(metadata.metadata("glacier-games").get_all("Provides-Extra") or [])
    assert lines == [f"glacier-games {extras}", "['app.js', 'index.html', 'style.css']"]

    # Gymnasium finds the environments by id alone, through the .pth file at the top of
    # site-packages (the smoke test already ran with it, without Gymnasium installed). The
    # fresh environment borrows Gymnasium and numpy from this one, behind its own packages.
    [site] = (venv / "lib").glob("python*/site-packages")
    assert {"glacier_games_gymnasium.pth", "_glacier_games_gymnasium_hook.py"} <= {p.name for p in site.iterdir()}
    (site / "zz_borrowed.pth").write_text(str(Path(gymnasium_location()).parent) + "\n")
    game = glacier.GAMES[0]
    env_id = "glacier/" + "".join(word.title() for word in game.split("_")) + "-v0"
    script = f"import gymnasium; e = gymnasium.make({env_id!r}); print(e.unwrapped.game, e.unwrapped.__module__)"
    assert run(python, "-c", script, cwd=work, env=env).split() == [game, "glacier.gymnasium_env"]


def test_a_wheel_for_another_platform_is_refused_in_one_line(built: tuple[Path, Path], tmp_path: Path) -> None:
    """pip refuses a wheel whose tags this Python does not take, in one line that names it."""
    _, wheel = built
    other = tmp_path / re.sub(r"-[^-]+\.whl$", "-win_arm64.whl", wheel.name)
    shutil.copy(wheel, other)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps", "--disable-pip-version-check", other],
        capture_output=True,
        text=True,
        env=clean_env(),
        check=False,
    )
    assert done.returncode != 0
    assert f"{other.name} is not a supported wheel on this platform" in done.stderr, done.stderr


def test_python_dash_m_glacier_is_the_glacier_command() -> None:
    """Help, a count (its first line: the second is a timing) and an error, alike."""
    for args in (["--help"], ["perft", glacier.GAMES[0], "2"], ["perft", "no_such_game", "2"]):
        runs = [
            subprocess.run([*command, *args], capture_output=True, text=True, check=False)
            for command in ([str(BIN / "glacier")], [sys.executable, "-m", "glacier"])
        ]
        command, module = [
            (r.returncode, r.stdout.splitlines()[:1] if "perft" in args else r.stdout, r.stderr) for r in runs
        ]
        assert module == command, args
    assert runs[0].returncode != 0 and "no_such_game" in runs[0].stderr


def gymnasium_location() -> str:
    import gymnasium

    return str(Path(gymnasium.__file__).parent)
