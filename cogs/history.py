"""``/game history``: a game told turn by turn in sentences, in the reader's language.

The move log holds notations only; the game is replayed from its seed (engines are deterministic) to get
each turn's events, and each turn is told as its board told it (the game's own sentences, or the catalogs').
The story is paged within Discord's limits, with buttons to turn the pages, and the whole record comes as a
file when it does not fit on one page.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.i18n import t
from bot.store import TableRecord
from bot.tables import ELIMINATED, MoveOutcome, Table, turn_key
from games import registry
from games.core import Event

log = logging.getLogger(__name__)

PAGE_CHARACTERS = 1800  # a page of the story, below Discord's 2,000 with the header


def story_of(poster: Any, record: TableRecord, moves: list[tuple[int, int, str, float]], locale: str) -> list[str]:
    """One paragraph per turn: its heading ("Turn 3 · Alice:") on a line, then one line per sentence.
    ``poster`` is the GameCog (it tells a turn as its board would). Replays the logged moves from the
    table's seed."""
    game = registry.get(record.game)
    names = [s.display for s in sorted(record.seats, key=lambda s: s.position)]
    state = game.setup(len(record.seats), record.options, record.seed)
    table = Table(record, game, state)
    turns: list[str] = []
    pending_moves: list[tuple[int, str]] = []
    pending_events: list[tuple[int, Event]] = []

    def tell() -> None:
        if pending_moves:
            outcome = MoveOutcome(table, list(pending_moves), list(pending_events), game.is_over(state), [])
            lines = poster.story_lines(table, outcome, names, locale)
            movers = dict.fromkeys(names[seat] for seat, _ in pending_moves if seat < len(names))
            head = t(locale, "history.turn", turn=len(turns) + 1, players=", ".join(movers))
            # The turn's heading on a line of its own, then each sentence on its own line: sentences carry
            # no closing stop ("... on the meadow N–W", "Alice's turn with tile ..."), so joined they ran on.
            told = lines or [" · ".join(text for _, text in pending_moves)]
            turns.append("\n".join([f"**{head}**", *told]))
        pending_moves.clear()
        pending_events.clear()

    for _seq, seat, notation, _at in moves:
        before = turn_key(game, state)
        if notation == ELIMINATED:
            pending_events.extend((seat, e) for e in game.eliminate(state, seat))
        elif not notation.startswith("@"):  # "@replaced_by_ai" changes nothing in the game
            pending_events.extend((seat, e) for e in game.apply(state, seat, game.parse(notation)))
        pending_moves.append((seat, notation))
        if turn_key(game, state) != before or game.is_over(state):
            tell()
    tell()
    return turns


def pages_of(paragraphs: list[str], size: int = PAGE_CHARACTERS) -> list[str]:
    """Paragraphs gathered into pages of at most ``size`` characters (a longer paragraph is cut)."""
    pages: list[str] = []
    current = ""
    for paragraph in paragraphs:
        paragraph = paragraph if len(paragraph) <= size else paragraph[: size - 1] + "…"
        if current and len(current) + 1 + len(paragraph) > size:
            pages.append(current)
            current = ""
        current = f"{current}\n{paragraph}" if current else paragraph
    if current:
        pages.append(current)
    return pages


class HistoryPage(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"pbc:history:(?P<table>\d{1,12}):(?P<page>\d{1,6})"):
    """A page-turning button of a history message; stateless (the page is recomputed), so it works on old
    messages and after a restart."""

    def __init__(self, table_id: int, page: int, label: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"pbc:history:{table_id}:{page}"))
        self.table_id, self.page = table_id, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> HistoryPage:
        return cls(int(match["table"]), int(match["page"]), "")

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: Any = interaction.client.get_cog("GameCog")  # type: ignore[attr-defined]
        await cog.show_history_page(interaction, self.table_id, self.page)


def page_view(table_id: int, page: int, count: int, locale: str) -> discord.ui.View | None:
    if count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(HistoryPage(table_id, max(page - 1, 0), t(locale, "history.previous"), disabled=page == 0))
    view.add_item(HistoryPage(table_id, min(page + 1, count - 1), t(locale, "history.next"),
                              disabled=page == count - 1))
    return view


def record_file(record: TableRecord, paragraphs: list[str]) -> discord.File:
    """The whole story as a text file (no Markdown), to download when it is long."""
    text = "\n".join(p.replace("**", "") for p in paragraphs)
    return discord.File(io.BytesIO(text.encode("utf-8")), f"{record.game}-table-{record.id}.txt")


FINISHED_LISTED = 15  # finished games listed by /game history (the newest)


def finished_embed(games: list[tuple[TableRecord, list[str]]], locale: str) -> discord.Embed | None:
    """The channel's finished games, newest first: number, game, date (in the reader's own format) and
    winners; the number is what ``/game history game:`` and ``/game replay game:`` take."""
    if not games:
        return None
    lines = []
    for record, winners in games:
        name = registry.get(record.game).names.get(locale, record.game) if registry.has(record.game) else record.game
        when = f"<t:{int(record.finished_at or record.created_at)}:d>"
        lines.append(t(locale, "history.finished_line", id=record.id, game=name, date=when,
                       winners=", ".join(winners) or "-"))
    return discord.Embed(title=t(locale, "history.finished_title"), description="\n".join(lines)[:4000],
                         colour=discord.Colour.dark_grey())
