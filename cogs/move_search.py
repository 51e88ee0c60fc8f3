"""``/game move``'s suggestions: at most 25 (Discord's limit), and every legal move reachable by typing.

Pure (no discord.py), for every game alike: a notation is words separated by spaces (``place 0,-1 r90``,
``die blue 5``). The moves that start with what the player typed are suggested as they are when they fit;
when more match, they are grouped by their first words, a whole level of words at a time while it fits: in
Trails, first the positions (``place 0,-1 … (3 moves)``), then, once one is typed or picked, its rotations.
When the next word alone has more than 25 values, as many of them as fit are suggested and the others are
grouped by their first letters (``place 3,… (12 moves)``).

A group is marked with ``…`` and how many moves it stands for. Discord puts a picked suggestion's *name*
in the box (its *value* is sent only if the player sends the command at once): so what a player types
after a picked group (``place 0,-1 … (3 moves) r9``) is read without the mark and its count. A group sent
as it is gets an answer listing how it may be finished (:func:`unfinished`), not a refusal of bad notation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from bot.i18n import t

MARK = "…"
LIMIT = 25  # suggestions Discord shows
TEXT_LIMIT = 100  # characters of a suggestion's name and value
TYPED_LIMIT = 200  # characters of typed text read (/game move takes no more; a move is shorter still)
# The mark of a group and the count after it, as a picked suggestion leaves them in the box (also cut short
# or partly erased by the player). Spaces before the mark: the group ends with a whole word.
_DECORATION = re.compile(r"(?P<space>\s*)…(?:\s*\([^)]*\)?)?")


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A whole legal move (``count`` 1, ``text`` its notation) or the start of several (``count`` moves),
    ending with a whole word (``word``: the next word is typed after a space) or inside one."""

    text: str
    count: int = 1
    word: bool = True
    group: bool = False

    def name(self, locale: str) -> str:
        """What the suggestion shows: a move as it is; a group marked, with how many moves it stands for."""
        if not self.group:
            return self.text[:TEXT_LIMIT]
        tail = f"{' ' if self.word else ''}{MARK} ({t(locale, 'move.group', count=self.count)})"
        return self.text[:TEXT_LIMIT - len(tail)] + tail

    @property
    def value(self) -> str:
        """What the suggestion sends: a move's notation; a group's start, a space after a whole word."""
        return (f"{self.text} " if self.group and self.word else self.text)[:TEXT_LIMIT]


def normalize(typed: str) -> str:
    """What the player typed, as notations are compared with it: a group's mark and count taken away, spaces
    collapsed, lower case; a space at the end (a finished word) kept."""
    # A mark after a space: the group ended with a whole word (the space stays); right after letters: the
    # group ended inside a word, which the player goes on typing.
    text = _DECORATION.sub(lambda m: " " if m["space"] else "", typed[:TYPED_LIMIT])
    words = text.split()
    return " ".join(words).lower() + (" " if words and text[-1:].isspace() else "")


def _moves(notations: Iterable[str]) -> list[str]:
    """The legal notations, spaces collapsed, once each, in the engine's order; none longer than a
    suggestion may be (they are still played when typed)."""
    return [n for n in dict.fromkeys(" ".join(n.split()) for n in notations) if 0 < len(n) <= TEXT_LIMIT]


def matching(notations: Iterable[str], typed: str) -> list[str]:
    """The legal moves that start with what was typed; if none does, those with every typed word inside
    them (``r90``, ``road``)."""
    moves, wanted = _moves(notations), normalize(typed)
    found = [n for n in moves if n.lower().startswith(wanted)]
    if not found and wanted.strip():
        words = wanted.split()
        found = [n for n in moves if all(w in n.lower() for w in words)]
    return found


def suggest(notations: Iterable[str], typed: str, limit: int = LIMIT) -> list[Suggestion]:
    """At most ``limit`` suggestions for what was typed, together standing for every matching move."""
    found = matching(notations, typed)
    if len(found) <= limit:
        return [Suggestion(n) for n in found]
    return grouped(found, limit)


def grouped(moves: Sequence[str], limit: int = LIMIT) -> list[Suggestion]:
    """``moves`` (more than ``limit``) in at most ``limit`` suggestions, grouped by their first words: by
    one word more than they all share, then by two... as long as a whole level fits (Trails: the positions,
    not yet their rotations). When even the first level does not fit, as many of its groups as fit and the
    rest by their first letters (the largest split first). In the order of the moves' first members."""
    order = {m: i for i, m in enumerate(moves)}
    root = _Group.of(list(moves), "")
    groups = [root]
    while True:  # whole levels of words while they fit
        parts = [p for g in groups for p in (g.by_word() if g.size > 1 else [g])]
        if len(parts) == len(groups) or _cost(parts) > limit:
            break
        groups = parts
    if groups == [root]:
        level = root.words + 1  # the groups of the first level, made by letters where they do not all fit
        while True:
            total = _cost(groups)
            for group in sorted((g for g in groups if g.size > 1 and g.words < level), key=lambda g: -g.size):
                split = next((parts for parts in (group.by_word(), group.by_letter())
                              if len(parts) > 1 and total - group.cost + _cost(parts) <= limit), None)
                if split is not None:
                    at = groups.index(group)
                    groups[at:at + 1] = split
                    break
            else:
                break
        if groups == [root] and not root.start:  # even their first letters are too many: the first of them
            groups = root.by_letter()
    groups.sort(key=lambda g: min(order[m] for m in g.members))
    return [s for g in groups for s in g.suggestions()][:limit]


def _cost(groups: Iterable[_Group]) -> int:
    return sum(g.cost for g in groups)


@dataclass(frozen=True, slots=True)
class _Group:
    """Moves and the start they share: their longest shared start, cut back to where a word ends unless a
    split by letters made it end inside one (``place -3,-``)."""

    start: str
    members: tuple[str, ...]

    @classmethod
    def of(cls, members: list[str], floor: str, inside_word: bool = False) -> _Group:
        if len(members) == 1:
            return cls(members[0].lower(), tuple(members))
        start = _common_letters([m.lower() for m in members])
        if not _at_word_end(start, members):
            cut = start.rfind(" ")
            start = start[:cut] if cut >= len(floor) else start if inside_word else floor
        return cls(start, tuple(members))

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def words(self) -> int:
        """The whole words of the shared start."""
        return len(self.start.split()) - (0 if _at_word_end(self.start, self.members) else 1)

    @property
    def cost(self) -> int:
        return len(self.suggestions())

    def suggestions(self) -> list[Suggestion]:
        rest = [m for m in self.members if m.lower() != self.start]
        out = [Suggestion(m) for m in self.members if m.lower() == self.start]  # a move that starts others
        if len(rest) <= 1:
            return [*out, *(Suggestion(m) for m in rest)]
        return [*out, Suggestion(rest[0][:len(self.start)], len(rest), _at_word_end(self.start, rest), group=True)]

    def _split(self, key: Callable[[str], str], inside_word: bool) -> list[_Group]:
        parts: dict[str, list[str]] = {}
        for member in self.members:
            parts.setdefault(key(member.lower()), []).append(member)
        return [_Group.of(members, floor, inside_word) for floor, members in parts.items()]

    def by_word(self) -> list[_Group]:
        """Split by the word after the shared start (or by the rest of the word the start ends inside)."""
        at_end = _at_word_end(self.start, self.members)
        begin = len(self.start) + 1 if at_end and self.start else len(self.start)

        def key(member: str) -> str:
            end = member.find(" ", begin)
            return member if end < 0 else member[:end]

        return self._split(key, inside_word=False)

    def by_letter(self) -> list[_Group]:
        """Split by the first letter after the shared start (of the next word, when the start ends one)."""
        size = len(self.start) + (2 if self.start and _at_word_end(self.start, self.members) else 1)
        return self._split(lambda member: member[:size], inside_word=True)


def _at_word_end(start: str, members: Iterable[str]) -> bool:
    """``start`` ends where a word of every member ends (or is empty)."""
    return not start or all(len(m) == len(start) or m[len(start)] == " " for m in members)


def _common_letters(words: Sequence[str]) -> str:
    if not words:
        return ""
    first, last = min(words), max(words)
    size = 0
    while size < min(len(first), len(last)) and first[size] == last[size]:
        size += 1
    return first[:size]


def unfinished(notations: Iterable[str], typed: str, limit: int = LIMIT) -> list[Suggestion]:
    """When what was sent is not a legal move but the start of some (a group picked and sent as it is): how
    it may be finished, grouped as the suggestions are; empty otherwise (a move, or text the game refuses)."""
    moves, wanted = _moves(notations), normalize(typed)
    if not wanted.strip() or wanted.strip() in {m.lower() for m in moves}:
        return []
    found = [m for m in moves if m.lower().startswith(wanted)]
    if not found and MARK in typed:  # "place 0,-1 …" sent with the space the mark stood for lost
        found = [m for m in moves if m.lower().startswith(wanted.strip())]
    return [Suggestion(m) for m in found] if len(found) <= limit else grouped(found, limit)


def unfinished_text(starts: Sequence[Suggestion], typed: str, locale: str) -> str:
    """The private answer to a move sent unfinished: what it may become."""
    options = "\n".join(f"• `{s.name(locale)}`" for s in starts)
    return t(locale, "move.unfinished", typed=normalize(typed).strip()[:TEXT_LIMIT], options=options)[:2000]


__all__ = ["LIMIT", "MARK", "Suggestion", "grouped", "matching", "normalize", "suggest", "unfinished",
           "unfinished_text"]
