"""Colour-vision deficiency checks for the boards (issue 38): the Machado, Oliveira & Fernandes (2009)
simulation matrices at full severity, applied in linear RGB, and the CIEDE2000 colour difference.

A board passes when any two colours that must be told apart (two seats, two terrains) stay at least
``MIN_DELTA_E`` apart for normal vision and under each simulated deficiency."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from itertools import combinations

RGB = tuple[int, int, int]

# Machado et al. 2009, severity 1.0 (protanopia, deuteranopia, tritanopia), on linear RGB.
MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779),
                   (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
VISIONS = ("normal", *MACHADO)
MIN_DELTA_E = 10.0  # CIEDE2000; ~2.3 is a just-noticeable difference, 10 is plainly another colour


def _to_linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def _to_srgb(v: float) -> int:
    v = min(max(v, 0.0), 1.0)
    s = v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055
    return round(s * 255)


def simulate(colour: RGB, vision: str) -> RGB:
    """How ``colour`` looks under ``vision`` (``normal`` or a key of ``MACHADO``)."""
    if vision == "normal":
        return colour
    lin = [_to_linear(c) for c in colour]
    out = [sum(m * v for m, v in zip(row, lin, strict=True)) for row in MACHADO[vision]]
    return (_to_srgb(out[0]), _to_srgb(out[1]), _to_srgb(out[2]))


def to_lab(colour: RGB) -> tuple[float, float, float]:
    r, g, b = (_to_linear(c) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(c1: RGB, c2: RGB) -> float:
    """CIEDE2000 difference of two sRGB colours."""
    return delta_e_lab(to_lab(c1), to_lab(c2))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 difference of two CIELAB colours (Sharma, Wu & Dalal 2005)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c1_ab, c2_ab = math.hypot(a1, b1), math.hypot(a2, b2)
    c_bar = (c1_ab + c2_ab) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dlp, dcp = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0.0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lp_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_bar - 30)) + 0.24 * math.cos(math.radians(2 * hp_bar))
         + 0.32 * math.cos(math.radians(3 * hp_bar + 6)) - 0.20 * math.cos(math.radians(4 * hp_bar - 63)))
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
    sl = 1 + 0.015 * (lp_bar - 50) ** 2 / math.sqrt(20 + (lp_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * d_theta)) * rc
    return math.sqrt((dlp / sl) ** 2 + (dcp / sc) ** 2 + (dhp / sh) ** 2 + rt * (dcp / sc) * (dhp / sh))


def closest_pairs(colours: Mapping[str, RGB] | Iterable[tuple[str, RGB]],
                  minimum: float = MIN_DELTA_E) -> list[tuple[str, str, str, float]]:
    """Every (vision, name, name, ΔE) where two of ``colours`` come closer than ``minimum``: empty when all
    stay apart under every vision."""
    items = list(colours.items() if isinstance(colours, Mapping) else colours)
    found = []
    for vision in VISIONS:
        for (n1, c1), (n2, c2) in combinations(items, 2):
            d = delta_e(simulate(c1, vision), simulate(c2, vision))
            if d < minimum:
                found.append((vision, n1, n2, round(d, 1)))
    return found
