"""A game as an animated image: one frame per turn, the last one held.

Frames are board images of different sizes (a Trails map grows): each is centred on a canvas the size of
the final board (scaled down if it is larger), so the last frame is the final board as its post showed it.
Discord animates GIF and WebP attachments (APNG is shown as its first frame). Measured on a whole 6-player
Trails game with every expansion (125 frames, benchmarks/bench_replay.py): lossy WebP at quality 80 is
7.7 MiB at 829 x 1194 with its text as sharp as the PNG's to the eye; GIF is 16 MiB at that size (a board's
tile art is many colours: a 256-colour palette compresses it badly), APNG larger still, and lossless WebP
takes minutes to encode. So WebP is written; when it would pass ``limit`` (Discord's 10 MiB) the frames are
scaled down until it fits.

Each frame has a strip above the board with the turn counter ("Turn 12 of 71", or "12 / 71" when the caller
gives no captions) and a bar of the game's progress. The pace fits the table: a round of every seat's turn
takes about ``ROUND_MS`` whatever the number of players (within ``MIN_FRAME_MS``..``MAX_FRAME_MS`` a turn),
so a 6-player game does not crawl and a 2-player one does not flicker; the final board is held longer.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from rendering.common import font

FRAME_MS = 700  # a turn, when the number of players is not given
ROUND_MS = 2400  # a round of every seat's turn, whatever the number of players
MIN_FRAME_MS = 400  # a turn is never shorter (6 players: 400 ms) ...
MAX_FRAME_MS = 1200  # ... nor longer (solo and 2 players: 1.2 s)
LAST_FRAME_MS = 5000  # the final position, held
COUNTER_TEXT_PX = 13  # the counter's text on a 550 px wide display (Discord's chat), never smaller
DISPLAY_WIDTH = 550
DISCORD_LIMIT = 10 * 1024 * 1024
# Larger boards are scaled down first, by area (a tall one-column board keeps its width's text readable):
# a replay is watched in the chat's preview, about 550 px wide.
MAX_PIXELS = 1_000_000
FORMATS = {"webp": "WEBP", "gif": "GIF", "png": "PNG"}  # file extension -> Pillow's format (png: APNG)
DEFAULT_FORMAT = "webp"
WEBP_QUALITY = 80


class ReplayTooLarge(Exception):
    """Even scaled down, the animation would not fit the limit."""


def open_frames(pngs: Sequence[bytes]) -> list[Image.Image]:
    return [Image.open(io.BytesIO(data)).convert("RGB") for data in pngs]


def canvas_frames(frames: Sequence[Image.Image], scale: float = 1.0) -> list[Image.Image]:
    """Every frame on a canvas the size of the last one (times ``scale``): larger frames are scaled down to
    fit, smaller ones centred on their own background colour (their top-left pixel)."""
    last = frames[-1]
    size = (max(1, round(last.width * scale)), max(1, round(last.height * scale)))
    out: list[Image.Image] = []
    for frame in frames:
        background = frame.getpixel((0, 0))  # before scaling, which blends the corner into its neighbours
        fit = min(size[0] / frame.width, size[1] / frame.height, 1.0) if frame is not last else scale
        if fit != 1.0:
            frame = frame.resize((max(1, round(frame.width * fit)), max(1, round(frame.height * fit))),
                                 Image.Resampling.LANCZOS)
        if frame.size == size:
            out.append(frame)
            continue
        canvas = Image.new("RGB", size, background)  # type: ignore[arg-type]
        canvas.paste(frame, ((size[0] - frame.width) // 2, (size[1] - frame.height) // 2))
        out.append(canvas)
    return out


def turn_ms(players: int | None = None) -> int:
    """How long a turn's frame is shown: a round of ``players`` turns takes about ``ROUND_MS``."""
    if not players:
        return FRAME_MS
    return max(MIN_FRAME_MS, min(MAX_FRAME_MS, round(ROUND_MS / players)))


def frame_durations(count: int, players: int | None = None) -> list[int]:
    """Every frame's duration (ms): a turn each at the table's pace, the last (the final board) held."""
    return [turn_ms(players)] * (count - 1) + [LAST_FRAME_MS] if count else []


def default_captions(count: int) -> list[str]:
    """Counters without words, for any language: "0 / 71" (the start) ... "71 / 71"."""
    return [f"{number} / {count - 1}" for number in range(count)]


def counter_height(width: int) -> int:
    """The strip's height above a frame ``width`` pixels wide: its text is ``COUNTER_TEXT_PX`` or more once
    the frame is shown ``DISPLAY_WIDTH`` wide."""
    return round(counter_px(width) * 1.8)


def counter_px(width: int) -> int:
    return max(COUNTER_TEXT_PX, math.ceil(COUNTER_TEXT_PX * width / DISPLAY_WIDTH))


def with_counter(frame: Image.Image, caption: str, done: float) -> Image.Image:
    """The frame under a dark strip with ``caption`` and a bar ``done`` (0..1) of the way across."""
    px = counter_px(frame.width)
    strip = counter_height(frame.width)
    out = Image.new("RGB", (frame.width, frame.height + strip), (38, 40, 46))
    out.paste(frame, (0, strip))
    draw = ImageDraw.Draw(out)
    bar = max(3, px // 4)
    draw.rectangle((0, strip - bar, round(frame.width * max(0.0, min(1.0, done))), strip - 1),
                   fill=(236, 186, 64))
    draw.text((px // 2 + 2, (strip - bar) // 2), caption, font=font(px, bold=True), fill=(245, 245, 245),
              anchor="lm")
    return out


def counted_frames(frames: Sequence[Image.Image], captions: Sequence[str] | None = None) -> list[Image.Image]:
    """Every frame with its turn counter (``captions``, one per frame; numbers only if not given)."""
    captions = list(captions) if captions is not None else default_captions(len(frames))
    if len(captions) != len(frames):
        raise ValueError(f"{len(captions)} captions for {len(frames)} frames")
    last = max(1, len(frames) - 1)
    return [with_counter(frame, caption, number / last)
            for number, (frame, caption) in enumerate(zip(frames, captions, strict=True))]


def encode(frames: Sequence[Image.Image], extension: str = DEFAULT_FORMAT,
           durations: Sequence[int] | None = None) -> bytes:
    """The frames as one animated image, looping, the last frame held (``durations`` in ms, one per frame:
    ``frame_durations`` of an unknown number of players if not given)."""
    durations = list(durations) if durations is not None else frame_durations(len(frames))
    buffer = io.BytesIO()
    first, rest = frames[0], list(frames[1:])
    if extension == "webp":
        first.save(buffer, "WEBP", save_all=True, append_images=rest, duration=durations, loop=0, quality=WEBP_QUALITY,
                   method=2)
    elif extension == "gif":
        # One palette for every frame (the last has every colour the board gathered): no flicker between
        # frames, and Pillow stores only what changed.
        palette = frames[-1].quantize(256, method=Image.Quantize.MEDIANCUT)
        paletted = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
        paletted[0].save(buffer, "GIF", save_all=True, append_images=paletted[1:], duration=durations, loop=0,
                         disposal=1)
    elif extension == "png":
        first.save(buffer, "PNG", save_all=True, append_images=rest, duration=durations, loop=0)
    else:
        raise ValueError(f"unknown animation format {extension!r}")
    return buffer.getvalue()


def animate(pngs: Sequence[bytes], extension: str = DEFAULT_FORMAT, limit: int = DISCORD_LIMIT,
            max_pixels: int = MAX_PIXELS, players: int | None = None,
            captions: Sequence[str] | None = None) -> tuple[bytes, float]:
    """The board images (PNG, one per turn: the start, then the end of every turn) as an animation under
    ``limit`` bytes, and the scale of its boards (1.0: their own size). Each frame has its turn counter
    (``captions``, one per image, e.g. "Turn 12 of 71"; numbers if not given) and the pace of ``players``
    (``turn_ms``). ``ReplayTooLarge`` if no scale down to a tenth fits."""
    frames = open_frames(pngs)
    durations = frame_durations(len(frames), players)
    last = frames[-1]
    scale = min(1.0, (max_pixels / (last.width * last.height)) ** 0.5)
    while scale >= 0.1:
        data = encode(counted_frames(canvas_frames(frames, scale), captions), extension, durations)
        if len(data) <= limit:
            return data, scale
        scale *= max(0.5, min(0.9, (limit / len(data)) ** 0.5 * 0.95))  # the area shrinks with the bytes
    raise ReplayTooLarge(f"{len(frames)} frames do not fit {limit} bytes")
