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

ROOT = Path(__file__).parent.parent
DIST = "glacier_games"  # the distribution glacier-games, as file names write it


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

    from_scratch = clean_env(CARGO_TARGET_DIR=str(tmp_path / "target"))
    build = (maturin(), "build", "--release", "-o", tmp_path / "dist", "-i", sys.executable)
    run(*build, cwd=source, env=from_scratch)
    [wheel] = (tmp_path / "dist").glob(f"{DIST}-*.whl")
    cpython = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert f"{DIST}-{glacier.__version__}-{cpython}-{cpython}-" in wheel.name  # for this CPython version

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=clean_env())
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel, cwd=tmp_path, env=clean_env())

    script = (
        "import importlib.metadata as m, glacier, glacier.reference as r\n"
        "print(glacier.__file__)\n"
        "print(m.metadata('glacier-games')['Name'], sorted(m.metadata('glacier-games').get_all('Provides-Extra')))\n"
        "print(glacier.new_game('ice_age_chess', start='standard').perft(4), glacier.new_game('kuba').perft(6))\n"
        "print(r.new_game('kuba').perft(3))\n"
    )
    lines = run(python, "-c", script, cwd=tmp_path, env=clean_env()).splitlines()
    assert Path(lines[0]).is_relative_to(venv), "glacier is imported from the fresh environment"
    extras = sorted(metadata.metadata("glacier-games").get_all("Provides-Extra") or [])
    assert lines[1:] == [f"glacier-games {extras}", "197281 784020", "640"]
    out = run(venv / "bin" / "glacier", "perft", "kings_court", "5", cwd=tmp_path, env=clean_env())
    assert out.startswith("kings_court perft(5) = 320224\n")
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
    script = "import gymnasium; e = gymnasium.make('glacier/Kuba-v0'); print(e.unwrapped.game, e.unwrapped.__module__)"
    assert run(python, "-c", script, cwd=tmp_path, env=clean_env()).split() == ["kuba", "glacier.gymnasium_env"]


def gymnasium_location() -> str:
    import gymnasium

    return str(Path(gymnasium.__file__).parent)
