"""The small SVG writer every drawing uses, and the status line under a board."""

from __future__ import annotations

from html import escape
from typing import Any

__all__ = ["Svg", "status"]


class Svg:
    """A tiny SVG writer."""

    def __init__(self, width: float, height: float, background: str = "#ffffff") -> None:
        self.width, self.height = width, height
        self.parts: list[str] = [f'<rect x="0" y="0" width="{width:g}" height="{height:g}" fill="{background}"/>']

    def add(self, element: str, **attrs: Any) -> None:
        text = " ".join(f'{k.rstrip("_").replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
        self.parts.append(f"<{element} {text}/>")

    def text(self, x: float, y: float, content: str, size: float = 12, **attrs: Any) -> None:
        extra = " ".join(f'{k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
        self.parts.append(
            f'<text x="{x:g}" y="{y:g}" font-size="{size:g}" font-family="sans-serif" '
            f'text-anchor="middle" dominant-baseline="central" {extra}>{escape(content)}</text>'
        )

    def __str__(self) -> str:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width:g}" height="{self.height:g}" '
            f'viewBox="0 0 {self.width:g} {self.height:g}">' + "".join(self.parts) + "</svg>"
        )


def status(position: Any, names: tuple[str, ...]) -> str:
    outcome = position.outcome
    if outcome is None:
        return f"{names[position.current_player]} to move"
    if outcome == "draw":
        return "draw"
    return f"{names[outcome]} wins"
