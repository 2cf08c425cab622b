"""Type stubs for the compiled engine module (rust/glacier-py)."""

from typing import Any, Callable, Optional, Self, Union, final

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

__all__ = [
    "GameState",
    "NativeEvalNet",
    "NativeNet",
    "NativeSearch",
    "NativeVectorEnv",
    "__version__",
    "_restore",
    "_set_svg_renderer",
    "alphabeta_native",
    "chess_san",
    "chess_uci",
    "evaluation_games_native",
    "from_text",
    "games",
    "mcts_options",
    "new_game",
    "playouts_native",
    "selfplay_native",
    "thread_count",
]
__version__: str

def games() -> list[dict[str, Any]]:
    """Every game in registry order: ``name``, ``title`` and ``params`` (each parameter's
    ``name``, ``default``, ``min``, ``max`` and ``optional``)."""

def new_game(name: str, **params: int | None) -> GameState: ...
def from_text(name: str, text: str, **params: int | None) -> GameState:
    """The position ``text``; parameters the text states itself (E's ``players``) may be left out."""

def _restore(
    name: str, params: dict[str, int | None], text: str, moves: list[str], pending: list[int] = ...
) -> GameState: ...
def _set_svg_renderer(renderer: Callable[[GameState], str]) -> None: ...
def chess_san(text: str, uci: str, **params: int | None) -> str:
    """The SAN of the UCI move ``uci`` in the Ice Age Chess position ``text``."""

def chess_uci(text: str, san: str, **params: int | None) -> str:
    """The UCI text of the move written in SAN as ``san`` in the Ice Age Chess position ``text``."""

@final
class GameState:
    """A state of any game (``game`` says which), with the moves played since it was made."""

    @property
    def game(self) -> str: ...
    @property
    def params(self) -> dict[str, int | None]: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def fixed_action_space(self) -> bool: ...
    @property
    def max_game_length(self) -> int: ...
    @property
    def observation_shape(self) -> list[int]: ...
    def legal_moves(self) -> list[str]: ...
    def play(self, move: str) -> None: ...
    def undo(self) -> str: ...
    def legal_actions(self) -> list[int]: ...
    def legal_action_mask(self) -> npt.NDArray[np.bool_]: ...
    def apply_action(self, action: int) -> None: ...
    def action_to_move(self, action: int) -> Optional[str]: ...
    def action_to_string(self, action: int) -> str: ...
    def observation(self, player: Optional[int] = None) -> npt.NDArray[np.float32]: ...
    def move_to_actions(self, move: str) -> list[int]: ...
    def undo_action(self) -> int: ...
    @property
    def pending_actions(self) -> list[int]: ...
    def action_history(self) -> list[int]: ...
    @property
    def moves(self) -> list[str]: ...
    def copy(self, history: Optional[Union[bool, int]] = None) -> GameState: ...
    @property
    def history_limit(self) -> Optional[int]: ...
    @history_limit.setter
    def history_limit(self, limit: Optional[int]) -> None: ...
    def __copy__(self) -> GameState: ...
    def __deepcopy__(self, memo: Any) -> GameState: ...
    def text(self) -> str: ...
    def hash(self) -> int: ...
    def _hash_from_scratch(self) -> int: ...
    @property
    def current_player(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def ended_by_ply_limit(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def heuristic(self) -> list[float]: ...
    def perft(self, depth: int, bulk: bool = True, threads: int = 1, hash_mb: int = 0) -> int: ...
    def perft_divide(self, depth: int, threads: int = 1) -> dict[str, int]: ...
    def _repr_svg_(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

def playouts_native(
    game: str,
    games: int,
    seed: int = 0,
    threads: int = 0,
    position: str | None = None,
    cutoff: int | None = None,
    **params: int | None,
) -> dict[str, Any]: ...

@final
class NativeVectorEnv:
    def __new__(
        cls,
        game: str,
        num_envs: int,
        auto_reset: bool = True,
        position: str | None = None,
        seed: int = 0,
        threads: int = 0,
        agent: int | None = None,
        **params: int | None,
    ) -> NativeVectorEnv: ...
    @property
    def game(self) -> str: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> list[int]: ...
    def reset(self) -> None: ...
    def reset_some(self, mask: npt.NDArray[np.bool_]) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        observations: npt.NDArray[np.float32] | None = None,
        masks: npt.NDArray[np.bool_] | None = None,
        player: int | None = None,
        masks_view: int | None = None,
        fresh_masks: bool = False,
        observations_view: int | None = None,
        fresh_observations: bool = False,
    ) -> tuple[
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        npt.NDArray[np.uint32],
        npt.NDArray[np.int32],
        int,
    ]: ...
    def legal_mask(self, env: int | None = None) -> npt.NDArray[np.bool_]: ...
    def observations(self, player: int | None = None, env: int | None = None) -> npt.NDArray[np.float32]: ...
    def write_legal_mask(self, out: npt.NDArray[np.bool_]) -> None: ...
    def update_legal_mask(self, out: npt.NDArray[np.bool_], view: int | None = None, fresh: bool = False) -> None: ...
    def write_observations(self, out: npt.NDArray[np.float32], player: int | None = None) -> None: ...
    def update_observations(
        self, out: npt.NDArray[np.float32], player: int | None = None, view: int | None = None, fresh: bool = False
    ) -> None: ...
    def current_players(self) -> npt.NDArray[np.int32]: ...
    def texts(self) -> list[str]: ...
    def pending_actions(self, env: int) -> list[int]: ...
    def random_actions(self) -> npt.NDArray[np.int64]: ...
    def legal_actions(self, env: int) -> list[tuple[int, str]]: ...
    def play_move(self, env: int, text: str) -> tuple[npt.NDArray[np.float64], bool, bool, int]: ...

@final
class NativeSearch:
    """MCTS searchers of one game, with their trees kept between searches."""

    def __new__(
        cls,
        game: str,
        *,
        evaluator: str = "rollout",
        rollout_plies: int | None = None,
        selection: str = "uct",
        c_puct: float = 1.4,
        dirichlet_alpha: float = 0.3,
        dirichlet_fraction: float = 0.0,
        virtual_loss: float = 1.0,
        threads: int = 1,
        parallel: str = "tree",
        trees: int | None = None,
        seed: int = 0,
        reuse: bool = True,
        priors: str = "uniform",
        prior_temperature: float = 1.0,
        rollout_policy: str = "uniform",
        rollout_temperature: float = 1.0,
        heuristic_mix: float = 0.0,
        rollout_mix: float = 0.0,
    ) -> NativeSearch: ...
    @property
    def game(self) -> str: ...
    @property
    def tree_size(self) -> int: ...
    def reset(self) -> None: ...
    def search(
        self, state: Any, simulations: int | None = None, seconds: float | None = None, temperature: float = 0.0
    ) -> dict[str, Any]: ...
    def search_batch(
        self,
        states: list[Any],
        evaluator: Any,
        simulations: int,
        temperature: float = 0.0,
        batch_size: int = 1,
        to_play: bool = False,
    ) -> list[dict[str, Any]]: ...

def thread_count(threads: int) -> int:
    """The threads the engine runs a request of ``threads`` on (0: every core this process may
    use); a count outside 0-256 raises ``InvalidParameterError``."""

def mcts_options() -> list[dict[str, Any]]:
    """The options of ``NativeSearch`` in order: ``name``, ``default``, ``kind`` and the values
    each accepts (``choices``, or ``min``/``max``), ``optional``, ``api_default`` and ``help``."""

def selfplay_native(
    searcher: NativeSearch,
    start: Any,
    first: int,
    stop: int,
    seed: int,
    evaluator: Any,
    *,
    simulations: int,
    batch_size: int,
    temperature: float,
    temperature_moves: int,
    max_moves: int | None,
    concurrent: int,
    on_round: Callable[[int], Any] | None = None,
    to_play: bool = False,
) -> dict[str, npt.NDArray[Any]]:
    """Games ``first..stop`` of a self-play run seeded ``seed`` from ``start`` with ``searcher``'s
    settings, their leaves evaluated by ``evaluator`` (a net, a callable, or None for the
    searcher's own evaluation): the rows of ``glacier.learn.AZ_COLUMNS``, game after game."""

def alphabeta_native(
    state: Any, depth: int | None = None, seconds: float | None = None, evaluation: NativeEvalNet | None = None
) -> dict[str, Any]:
    """Alpha-beta from ``state``: ``move``, ``score``, ``mate``, ``depth``, ``pv``, ``nodes``, ``seconds``."""

@disjoint_base
class NativeNet:
    """A policy-value net for one game, evaluated by the engine (the base of ``glacier.learn.Net``)."""

    def __new__(
        cls,
        game: str,
        observation_shape: list[int],
        hidden: list[int],
        num_actions: int,
        num_players: int,
        weights: npt.NDArray[np.float32],
        *_args: Any,
        **_kwargs: Any,
    ) -> Self: ...
    @property
    def game(self) -> str: ...
    def __call__(
        self, observations: npt.NDArray[np.float32], legal: Any, to_play: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]: ...

@disjoint_base
class NativeEvalNet:
    """An evaluation net for one game, alpha-beta's score (the base of ``glacier.nets.EvaluationNet``)."""

    def __new__(
        cls,
        game: str,
        observation_shape: list[int],
        features: int,
        hidden: list[int],
        weights: npt.NDArray[np.float32],
        base: str,
        *_args: Any,
        **_kwargs: Any,
    ) -> Self: ...
    @property
    def game(self) -> str: ...
    def score(self, state: Any) -> float:
        """The net's score of ``state`` for its player to move, both views computed afresh."""

def evaluation_games_native(
    start: Any,
    net: NativeEvalNet | None,
    *,
    games: int,
    seed: int,
    depth: int,
    nodes: int | None,
    random_plies: tuple[int, int],
    threads: int,
) -> dict[str, npt.NDArray[Any]]:
    """Games of alpha-beta against itself: every position searched, with its score and result."""
