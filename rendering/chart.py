"""A small line chart of ratings over games (``/game stats``): one line per game, a legend, the axes' range.

Labels come in already localised: this module draws only.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.common import COLOR_ORDER, PLAYER_COLORS, font, png_bytes

WIDTH, HEIGHT = 640, 300
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 16, 58, 36
LEGEND_Y = 36  # a row of its own under the title: long titles and game names never overlap
BACKGROUND = (43, 45, 49)  # Discord's dark theme, so the chart sits in the chat
AXIS, GRID, TEXT = (148, 155, 164), (64, 68, 75), (219, 222, 225)
SERIES_COLORS = [PLAYER_COLORS[name] for name in COLOR_ORDER if name != "black"] + [(230, 230, 230)]


def rating_chart(series: Sequence[tuple[str, Sequence[float]]], title: str, x_label: str) -> bytes:
    """PNG of each (label, values) series against its games (1, 2, ...), on one shared scale. A series of one
    value is a dot."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN_LEFT, 10), title, fill=TEXT, font=font(15, bold=True))
    values = [v for _, points in series for v in points] or [0.0]
    low, high = min(values), max(values)
    if high - low < 1.0:  # a flat history still gets a readable scale around it
        low, high = low - 0.5, high + 0.5
    longest = max((len(points) for _, points in series), default=1)
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, MARGIN_TOP, HEIGHT - MARGIN_BOTTOM

    def at(index: int, value: float) -> tuple[float, float]:
        x = left + (right - left) * (index / (longest - 1) if longest > 1 else 0.5)
        return x, bottom - (bottom - top) * (value - low) / (high - low)

    small = font(11)
    for step in range(5):  # horizontal grid lines with their rating
        value = low + (high - low) * step / 4
        y = at(0, value)[1]
        draw.line((left, y, right, y), fill=GRID)
        draw.text((left - 6, y), f"{value:.1f}", fill=AXIS, font=small, anchor="rm")
    draw.line((left, top, left, bottom), fill=AXIS)
    draw.line((left, bottom, right, bottom), fill=AXIS)
    draw.text((left, bottom + 6), "1", fill=AXIS, font=small, anchor="mt")
    if longest > 1:
        draw.text((right, bottom + 6), str(longest), fill=AXIS, font=small, anchor="rt")
    draw.text(((left + right) / 2, bottom + 20), x_label, fill=AXIS, font=small, anchor="mt")
    legend_x = float(left)
    for number, (label, points) in enumerate(series):
        colour = SERIES_COLORS[number % len(SERIES_COLORS)]
        xy = [at(i, v) for i, v in enumerate(points)]
        if len(xy) > 1:
            draw.line(xy, fill=colour, width=2, joint="curve")
        for x, y in xy[-1:] if len(xy) > 12 else xy:  # dots while few games; then only the latest
            draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
        draw.rectangle((legend_x, LEGEND_Y - 5, legend_x + 10, LEGEND_Y + 5), fill=colour)
        draw.text((legend_x + 14, LEGEND_Y), label, fill=TEXT, font=small, anchor="lm")
        legend_x += draw.textlength(label, font=small) + 30
    return png_bytes(image)
