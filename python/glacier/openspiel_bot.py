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
tree between moves. The search is over whole moves; where a move takes several actions
(a cube's drop order in Ice Cube Checkers, a jump chain in E), the bot searches once at the
move's first action and then plays the chosen move's actions. Its policy is the root's
visits summed per action (in the middle of a move, over the moves that go on from the
actions taken). Requires the
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
        # The last search: (its position and history length, its result, each move's actions).
        self._plan: Optional[tuple[tuple[str, int], search.SearchResult, dict[str, list[int]]]] = None

    def _search(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        """The policy over the legal actions of ``state`` and the action chosen.

        The search is over whole moves, from the state between moves. There the policy is
        the root's visits summed per first action. In the middle of a move (some of its
        actions taken), it is the same search's visits of the moves that begin with the
        actions taken, summed per next action; the search is kept from the move's first
        action, or made now from the state before it."""
        native = state.native
        pending = list(native.pending_actions)
        boundary = native
        if pending:
            boundary = native.copy()
            for _ in pending:
                boundary.undo_action()
        key = (boundary.text(), len(boundary.action_history()))
        if not pending or self._plan is None or self._plan[0] != key:
            result = self._searcher.search(
                boundary, simulations=self._simulations, seconds=self._seconds, temperature=self._temperature
            )
            actions = {move: boundary.move_to_actions(move) for move in result.visits}
            self._plan = (key, result, actions)
        _, result, actions = self._plan
        self.last = result
        taken = len(pending)
        # The moves that go on from the actions taken, each with its next action.
        going_on = {move: a[taken] for move, a in actions.items() if a[:taken] == pending and len(a) > taken}
        visits: dict[int, int] = {}
        for move, action in going_on.items():
            visits[action] = visits.get(action, 0) + result.visits[move]
        total = sum(visits.values())
        if total == 0:
            legal = list(state.legal_actions())
            return [(a, 1 / len(legal)) for a in legal], going_on.get(result.move, legal[0])
        policy = [(a, n / total) for a, n in sorted(visits.items())]
        chosen = going_on.get(result.move)
        if chosen is None:
            chosen = max(visits, key=lambda a: (visits[a], -a))
        return policy, chosen

    def step(self, state: Any) -> int:
        return self._search(state)[1]

    def step_with_policy(self, state: Any) -> tuple[list[tuple[int, float]], int]:
        return self._search(state)

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: Any) -> None:
        """Forgets the move being played; a position not in the kept tree starts a new one."""
        self._plan = None

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to do: the next search finds the position reached in its tree."""
