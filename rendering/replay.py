"""A game as an animated image: one frame per turn, the last one held.

Frames are board images of different sizes (a Trails map grows): each is centred on a canvas the size of
the final board (scaled down if it is larger), so the last frame is the final board as its post showed it.
Discord animates GIF and WebP attachments (APNG is shown as its first frame). Measured on a whole 6-player
Trails game with every expansion (125 frames, benchmarks/bench_replay.py): lossy WebP at quality 80 is
7.7 MiB at 829 x 1194 with its text as sharp as the PNG's to the eye; GIF is 16 MiB at that size (a board's
tile art is many colours: a 256-colour palette compresses it badly), APNG larger still, and lossless WebP
takes minutes to encode. So WebP is written; when it would pass ``limit`` (Discord's 10 MiB) the frames are
scaled down until it fits.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

FRAME_MS = 700  # a turn
LAST_FRAME_MS = 5000  # the final position, held
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


def encode(frames: Sequence[Image.Image], extension: str = DEFAULT_FORMAT) -> bytes:
    """The frames as one animated image, looping, the last frame held."""
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
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
            max_pixels: int = MAX_PIXELS) -> tuple[bytes, float]:
    """The board images (PNG, one per turn) as an animation under ``limit`` bytes, and the scale of its
    frames (1.0: the boards' own size). ``ReplayTooLarge`` if no scale down to a tenth fits."""
    frames = open_frames(pngs)
    last = frames[-1]
    scale = min(1.0, (max_pixels / (last.width * last.height)) ** 0.5)
    while scale >= 0.1:
        data = encode(canvas_frames(frames, scale), extension)
        if len(data) <= limit:
            return data, scale
        scale *= max(0.5, min(0.9, (limit / len(data)) ** 0.5 * 0.95))  # the area shrinks with the bytes
    raise ReplayTooLarge(f"{len(frames)} frames do not fit {limit} bytes")
