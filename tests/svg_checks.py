"""Helpers for the tests of pictures: the SVG tree, geometry, and colours as people see them
(CIE Lab distances, colour-blindness simulated as Machado et al. 2009 do)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

SVG = "{http://www.w3.org/2000/svg}"


def tree(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def elements(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{SVG}{tag}") if el.get("class") == cls]


def words(picture: str) -> list[str]:
    return [t.text or "" for t in tree(picture).iter(f"{SVG}text")]


def points(element: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (p.split(",") for p in element.get("points", "").split())]


def inside_convex(point: tuple[float, float], polygon: list[tuple[float, float]], slack: float = 0.2) -> bool:
    """Whether ``point`` lies in the convex ``polygon`` (or within ``slack`` pixels of it)."""
    x, y = point
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
        if abs(cross) / length > slack:
            signs.add(cross > 0)
    return len(signs) <= 1


# --- colours: CIE Lab distances, and colour-blindness simulated (Machado et al. 2009) --------

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def linear_rgb(colour: str) -> list[float]:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]


def lab(linear: list[float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: list[float], b: list[float]) -> float:
    return float(sum((p - q) ** 2 for p, q in zip(lab(a), lab(b))) ** 0.5)


def simulate(colour: str, matrix: Any) -> list[float]:
    rgb = linear_rgb(colour)
    return [sum(matrix[i][j] * rgb[j] for j in range(3)) for i in range(3)]
