"""The frameworks' own checks on a plain install: without the ``render`` extra (neither
CairoSVG nor Pillow), Gymnasium's ``check_env`` passes for every Gymnasium id (it renders
every mode the metadata lists), PettingZoo's ``api_test`` for every environment (E with 2 to
6 players), and OpenSpiel's tests of a Python game (as its own games' tests run them: the
random simulation test, observations, pickling, serialisation) on every game.

Each framework's checks run in a subprocess of this Python in which the rasterisers are
hidden (``sys.modules[name] = None``: their import fails as if they were not installed, and
``importlib.util.find_spec`` finds nothing), so the suite, which installs every extra,
sees what a plain ``pip install glacier-games gymnasium pettingzoo open_spiel`` sees."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

import pytest

#: The modules of the ``render`` extra (and CairoSVG's binding to the Cairo library).
HIDDEN = ("cairosvg", "cairocffi", "PIL")

PRELUDE = f"""
import sys
for name in {HIDDEN!r}:
    sys.modules[name] = None
import importlib.util
assert all(importlib.util.find_spec(name) is None for name in {HIDDEN!r})
try:
    import cairosvg
except ImportError:
    pass
else:
    raise AssertionError("cairosvg is not hidden")
import glacier
"""

GYMNASIUM = """
import gymnasium
from gymnasium.utils.env_checker import check_env
import glacier.gymnasium_env as g

assert g.RENDER_MODES == ("ansi",), g.RENDER_MODES
for game, env_id in g.ENV_IDS.items():
    env = gymnasium.make(env_id, max_plies=40)
    assert env.metadata["render_modes"] == ["ansi"], env.metadata
    check_env(env.unwrapped)
    env = gymnasium.make(env_id, render_mode="ansi", max_plies=40)
    check_env(env.unwrapped)
    vec = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point", max_plies=40)
    assert vec.metadata["render_modes"] == ["ansi"], vec.metadata
    vec.reset(seed=0)
    wanted = 'render_mode="rgb_array" needs CairoSVG and Pillow: pip install "glacier-games[render]"'
    for make in (g.GlacierEnv, lambda game, **kw: g.GlacierVectorEnv(game, 2, **kw)):
        try:
            make(game, render_mode="rgb_array")
        except gymnasium.error.DependencyNotInstalled as err:
            assert str(err) == wanted, err
        else:
            raise AssertionError("rgb_array without CairoSVG")
    print(env_id, "check_env passed")
"""

PETTINGZOO = """
import gymnasium
from pettingzoo.test import api_test
import glacier.pettingzoo_env as p

for game in glacier.GAMES:
    players = next((q for q in glacier.game_spec(game).params if q.name == "players"), None)
    for n in range(players.min, players.max + 1) if players else [None]:
        params = {"players": n} if n else {}
        env = p.env(game, max_plies=40, **params)
        assert env.metadata["render_modes"] == ["ansi"], env.metadata
        api_test(env, num_cycles=60, verbose_progress=False)
        api_test(p.env(game, render_mode="ansi", max_plies=40, **params), num_cycles=20, verbose_progress=False)
        try:
            p.env(game, render_mode="rgb_array")
        except gymnasium.error.DependencyNotInstalled:
            pass
        else:
            raise AssertionError("rgb_array without CairoSVG")
        print(game, params, "api_test passed")
"""

OPENSPIEL = """
import pickle
import numpy as np
import pyspiel
from open_spiel.python.observation import make_observation
import glacier.openspiel

for game in glacier.GAMES:
    spiel_game = pyspiel.load_game(f"glacier_{game}", {"max_plies": 40})
    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=True, verbose=False)
    state = spiel_game.new_initial_state()
    rng = np.random.RandomState(0)
    observation = make_observation(spiel_game)
    for _ in range(6):
        observation.set_from(state, state.current_player())
        np.testing.assert_array_equal(observation.tensor, state.observation_tensor(state.current_player()))
        state.apply_action(rng.choice(state.legal_actions()))
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    again = pickle.loads(pickle.dumps(spiel_game))
    assert str(again) == str(spiel_game)
    assert str(pickle.loads(pickle.dumps(state))) == str(state)
    _, restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(spiel_game, state))
    assert str(restored) == str(state)
    print(game, "OpenSpiel's tests passed")
"""

FRAMEWORKS = {"gymnasium": GYMNASIUM, "pettingzoo": PETTINGZOO, "openspiel": OPENSPIEL}
NEEDS = {"gymnasium": "gymnasium", "pettingzoo": "pettingzoo", "openspiel": "pyspiel"}


@pytest.mark.parametrize("framework", list(FRAMEWORKS))
def test_the_frameworks_checks_pass_without_the_render_extra(framework: str) -> None:
    pytest.importorskip(NEEDS[framework])
    code = textwrap.dedent(PRELUDE) + textwrap.dedent(FRAMEWORKS[framework])
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    assert done.stdout.count("passed") >= 5


def test_glacier_alone_imports_none_of_the_extras() -> None:
    """``import glacier`` brings numpy and the standard library only: the extras' frameworks,
    the web app and the trainer load when used."""
    code = (
        "import sys, numpy\n"
        "before = set(sys.modules)\n"
        "import glacier, glacier.search\n"
        "print(sorted({m.partition('.')[0] for m in set(sys.modules) - before}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = set(ast.literal_eval(out))
    heavy = {"gymnasium", "pettingzoo", "pyspiel", "open_spiel", "cairosvg", "PIL", "jax", "starlette", "uvicorn"}
    heavy |= {"click", "tqdm", "ray", "selenium"}
    assert loaded & heavy == set(), f"import glacier loads {sorted(loaded & heavy)}"
    assert "glacier" in loaded


def test_a_missing_extra_says_what_to_install() -> None:
    """Each framework module, imported without its framework, says in one line which extra
    brings it."""
    for module, hidden, extra in [
        ("glacier.gymnasium_env", "gymnasium", "gym"),
        ("glacier.pettingzoo_env", "pettingzoo", "gym"),
        ("glacier.openspiel", "pyspiel", "openspiel"),
    ]:
        code = f"import sys; sys.modules[{hidden!r}] = None\nimport {module}"
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        last = done.stderr.strip().splitlines()[-1]
        assert done.returncode == 1 and last.startswith(f"ModuleNotFoundError: {module} needs "), last
        assert last.endswith(f'pip install "glacier-games[{extra}]"'), last
