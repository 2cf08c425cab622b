"""glacier's MCTS as an OpenSpiel ``Bot``, for OpenSpiel's tools (``pyspiel.evaluate_bots``,
its arenas and examples) on the glacier games that ``glacier.openspiel`` registers.

>>> import numpy as np
>>> import pyspiel
>>> from open_spiel.python.bots.uniform_random import UniformRandomBot
>>> from glacier.openspiel_bot import MCTSBot
>>> game = pyspiel.load_game("glacier_ice_cube_checkers")
>>> bots = [MCTSBot(game, simulations=200, seed=1), UniformRandomBot(1, np.random.RandomState(0))]
>>> pyspiel.evaluate_bots(game.new_initial_state(), bots, 0)
[1.0, -1.0]

The search runs in the engine on the glacier state behind the OpenSpiel state, keeping its
tree between moves; the bot's policy is the root's visit distribution. Requires the
optional extra ``glacier[openspiel]``.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import pyspiel

from . import openspiel, search

__all__ = ["MCTSBot"]


class MCTSBot(pyspiel.Bot):  # type: ignore[misc]
    """A ``pyspiel.Bot`` playing glacier's MCTS with ``simulations`` per move (or
    ``seconds``); further keywords go to :class:`glacier.search.MCTS` (``evaluator``,
    ``rollout_plies``, ``c_puct``, ``threads``, ``seed`` ...)."""

    def __init__(
        self,
        game: Any,
        simulations: Optional[int] = 800,
        *,
        seconds: Optional[float] = None,
        evaluator: Union[str, search.Evaluator] = "rollout",
        seed: int = 0,
        temperature: float = 0.0,
        **options: Any,
    ) -> None:
        pyspiel.Bot.__init__(self)
        openspiel.register_all()
        short_name = game.get_type().short_name
        if not short_name.startswith("glacier_"):
            raise ValueError(f"MCTSBot plays the glacier games (glacier_<name>), not {short_name!r}")
        self._searcher = search.MCTS(short_name[len("glacier_") :], evaluator=evaluator, seed=seed, **options)
        self._simulations = simulations
        self._seconds = seconds
        self._temperature = temperature
        self.last: Optional[search.SearchResult] = None

    def _search(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        native = state.native
        self.last = result = self._searcher.search(
            native, simulations=self._simulations, seconds=self._seconds, temperature=self._temperature
        )
        action_of = {native.action_to_move(a): a for a in state.legal_actions()}
        total = sum(result.visits.values()) or 1
        policy = [(action_of[move], n / total) for move, n in result.visits.items()]
        return policy, action_of[result.move]

    def step(self, state: Any) -> int:
        return self._search(state)[1]

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        return self._search(state)

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: Any) -> None:
        """Nothing to do: a position not in the kept tree starts a new one."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the next search finds the position reached in its tree."""
