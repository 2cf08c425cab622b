"""What both kinds of net (policy-value, :mod:`glacier.nets`; evaluation,
:mod:`glacier.nets.evaluation_net`) share but their file: the facts of the game a net is
checked against, and the properties a net reads from its spec."""

from __future__ import annotations

from typing import Any, Protocol

from .. import _native
from ..errors import GlacierError, InvalidNetError


def game_facts(game: str, params: dict[str, Any]) -> tuple[dict[str, Any], tuple[int, ...], int, int]:
    """A game's full parameters, observation shape, action count and player count."""
    try:
        state = _native.new_game(game, **params)
    except GlacierError as err:
        raise InvalidNetError(f"the net is for {game!r} with {params}, which glacier cannot make: {err}") from None
    return dict(state.params), tuple(state.observation_shape), state.num_distinct_actions, state.num_players


class _Spec(Protocol):
    @property
    def params(self) -> dict[str, Any]: ...

    @property
    def training(self) -> dict[str, Any]: ...


class SpecProperties:
    """A net's ``params`` and ``training``, copies of its spec's (the spec stays as it is)."""

    spec: _Spec

    @property
    def params(self) -> dict[str, Any]:
        return dict(self.spec.params)

    @property
    def training(self) -> dict[str, Any]:
        return dict(self.spec.training)
