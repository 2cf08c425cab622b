"""SVG pictures of positions, one module per game (``_repr_svg_`` in notebooks, ``glacier show --svg``).

A picture is drawn from the position text, read by the pure-Python reference into a parsed
position (plain data that neither implementation's state is needed for), so a native and a
reference state of the same position give the same picture. Game ``name`` is drawn by
``glacier.svg.<name>.draw(position)``.
"""

from __future__ import annotations

import importlib
from typing import Any

from .. import reference

__all__ = ["render"]


def render(state: Any) -> str:
    """An SVG document picturing ``state`` (a native or reference state of any game)."""
    position = reference.from_text(state.game, state.text(), **state.params).position
    drawing = importlib.import_module(f"{__name__}.{state.game}")
    return drawing.draw(position)  # type: ignore[no-any-return]
