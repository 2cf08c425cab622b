"""The package as users get it: the sdist builds from scratch (a fresh Cargo target
directory) into the wheel for this CPython version, which installs into a fresh virtual
environment and runs there, outside the source tree. Everything is built in a temporary directory; this takes a
few minutes, most of it the optimised build."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

import glacier
from conftest import read_perft_fixtures

ROOT = Path(__file__).parent.parent
DIST = "glacier_games"  # the distribution glacier-games, as file names write it


def perft_checks() -> list[tuple[str, int]]:
    """Perft calls for the installed package to make, with the counts of tests/data/perft.txt:
    the engine from every game's start and named starts (the deepest count up to a million),
    the reference from every game's start (up to a thousand)."""
    checks = []
    for game in glacier.GAMES:
        defaults = glacier.new_game(game).params
        records = [r for r in read_perft_fixtures() if r["game"] == game]
        starts = {None: ("", {}), **glacier.game_spec(game).starts}
        for name, (text, implied) in starts.items():
            same = [
                r
                for r in records
                if (r["text"] or "") == text and {**defaults, **r["params"]} == {**defaults, **implied}
            ]
            depth, leaves = max((d, n) for d, n in same[0]["perft"] if n <= 1_000_000)
            checks.append((f"glacier.new_game({game!r}, start={name!r}).perft({depth})", leaves))
            if name is None:
                depth, leaves = max((d, n) for d, n in same[0]["perft"] if n <= 1_000)
                checks.append((f"r.new_game({game!r}).perft({depth})", leaves))
    return checks


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``glacier/`` and its name in CamelCase, version 0."""
    return "glacier/" + "".join(word.title() for word in game.split("_")) + "-v0"


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 1200) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{' '.join(map(str, args))} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that points Python at the development tree."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    return {**env, **extra}


def maturin() -> str:
    found = shutil.which("maturin") or shutil.which("maturin", path=str(Path(sys.executable).parent))
    assert found, "maturin is installed with the development tools (make dev)"
    return found


def test_the_sdist_builds_the_wheel_which_installs_and_runs_on_its_own(tmp_path: Path) -> None:
    run(maturin(), "sdist", "-o", tmp_path / "sdist", cwd=ROOT)
    [sdist] = (tmp_path / "sdist").glob(f"{DIST}-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = {name.partition("/")[2] for name in archive.getnames()}
        if hasattr(tarfile, "data_filter"):
            archive.extractall(tmp_path / "src", filter="data")
        else:  # Python before 3.11.4 / 3.10.12 has no extraction filters
            archive.extractall(tmp_path / "src")
    needed = {"pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "python/glacier/__init__.py"}
    needed |= {f"docs/rules/{game}.md" for game in glacier.GAMES}
    needed |= {"rust/glacier-core/src/lib.rs", "rust/glacier-py/src/lib.rs"}
    assert needed <= names, f"missing from the sdist: {sorted(needed - names)}"
    [source] = (tmp_path / "src").iterdir()

    # What the package holds and does is checked here, not how well the release profile
    # optimises: without its whole-program LTO the build takes half as long.
    from_scratch = clean_env(
        CARGO_TARGET_DIR=str(tmp_path / "target"),
        CARGO_PROFILE_RELEASE_LTO="off",
        CARGO_PROFILE_RELEASE_CODEGEN_UNITS="16",
    )
    build = (maturin(), "build", "--release", "-o", tmp_path / "dist", "-i", sys.executable)
    run(*build, cwd=source, env=from_scratch)
    [wheel] = (tmp_path / "dist").glob(f"{DIST}-*.whl")
    cpython = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"{DIST}-{glacier.__version__}-{cpython}-{cpython}-" in wheel.name  # for this CPython version

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=clean_env())
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path, env=clean_env())

    checks = perft_checks()
    script = (
        "import importlib.metadata as m, glacier, glacier.reference as r\n"
        "print(glacier.__file__)\n"
        "print(m.metadata('glacier-games')['Name'], sorted(m.metadata('glacier-games').get_all('Provides-Extra')))\n"
        + "".join(f"print({call})\n" for call, _ in checks)
    )
    lines = run(python, "-c", script, cwd=tmp_path, env=clean_env()).splitlines()
    assert Path(lines[0]).is_relative_to(venv), "glacier is imported from the fresh environment"
    extras = sorted(metadata.metadata("glacier-games").get_all("Provides-Extra") or [])
    assert lines[1:] == [f"glacier-games {extras}", *[str(leaves) for _, leaves in checks]]
    first = read_perft_fixtures()[0]  # a game's own start
    assert first["text"] is None and not first["params"]
    game = first["game"]
    depth, leaves = max((d, n) for d, n in first["perft"] if n <= 1_000_000)
    out = run(venv / "bin" / "glacier", "perft", game, str(depth), cwd=tmp_path, env=clean_env())
    assert out.startswith(f"{game} perft({depth}) = {leaves}\n")
    # The web app of `glacier serve` comes with its page and its dependencies.
    script = (
        "import glacier.web.app as app\n"
        "print(sorted(p.name for p in app.STATIC.iterdir()))\n"
        "print(type(app.create_app()).__name__)\n"
    )
    lines = run(python, "-c", script, cwd=tmp_path, env=clean_env()).splitlines()
    assert lines == ["['app.js', 'index.html', 'style.css']", "Starlette"]
    # The trained nets glacier ships come with it, and load without JAX.
    script = (
        "import sys, glacier.learn as learn\n"
        "nets = [learn.load(p) for p in sorted(learn.nets.BASELINES.glob('*.safetensors'))]\n"
        "print(len(nets) > 0, 'jax' in sys.modules)\n"
    )
    assert run(python, "-c", script, cwd=tmp_path, env=clean_env()).split() == ["True", "False"]

    # Gymnasium finds the environments by id alone, through the .pth file at the top of
    # site-packages (the script above already ran with it, without Gymnasium installed). The
    # fresh environment borrows Gymnasium and numpy from this one, behind its own packages.
    [site] = (venv / "lib").glob("python*/site-packages")
    assert {"glacier_games_gymnasium.pth", "_glacier_games_gymnasium_hook.py"} <= {p.name for p in site.iterdir()}
    (site / "zz_borrowed.pth").write_text(str(Path(gymnasium_location()).parent) + "\n")
    script = f"import gymnasium; e = gymnasium.make({env_id(game)!r}); print(e.unwrapped.game, e.unwrapped.__module__)"
    assert run(python, "-c", script, cwd=tmp_path, env=clean_env()).split() == [game, "glacier.gymnasium_env"]


def gymnasium_location() -> str:
    import gymnasium

    return str(Path(gymnasium.__file__).parent)
