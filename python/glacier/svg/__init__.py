"""SVG pictures of positions, one module per game (``_repr_svg_`` in notebooks, ``glacier show --svg``,
the replay page of ``glacier replay``).

A picture is drawn from the position text, read by the pure-Python reference into a parsed
position (plain data that neither implementation's state is needed for), so a native and a
reference state of the same position give the same picture. Game ``name`` is drawn by
``glacier.svg.<name>.draw(position, view)``. Every piece is drawn with shapes (no font
glyphs), so the pictures look the same in every renderer.
"""

from __future__ import annotations

from ._canvas import Arrow, View
from ._render import choice_picture, render, render_position

__all__ = ["Arrow", "View", "choice_picture", "render", "render_position"]
