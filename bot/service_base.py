"""What the parts of the table service share (``TableService`` in ``bot.tables`` is made of them): the
attributes its ``__init__`` sets, and, for the type checker only, the methods one part calls in another.
Nothing here runs: the class adds no attribute or method at run time."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.ai_thinker import AIThinker
from bot.notations import Notations
from bot.store import Store, TableRecord
from bot.table import BrokenTable, ClockUpdate, MoveOutcome, Table, TurnKey
from games.core import AnyGame, Event

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager


class ServiceBase:
    """The table service's state (see ``TableService.__init__``) and the methods its parts call in each
    other, declared for the type checker."""

    store: Store
    clock: Callable[[], float]
    tables: dict[int, Table]
    broken: dict[int, BrokenTable]
    finished_due: list[Table]
    _opening: dict[int, asyncio.Lock]
    on_deadline_change: Callable[[], None]
    owns_guild: Callable[[int | None], bool]
    _wakes: list[tuple[float, int]]
    _wake_at: dict[int, float]
    max_decoded: int
    _recent: OrderedDict[int, Table]
    _recordings: set[asyncio.Task[None]]
    ai: AIThinker
    notations: Notations

    if TYPE_CHECKING:
        # bot.tables (the lookups and the cache)
        def table(self, channel_id: int) -> Table: ...

        def _locked(self, channel_id: int, status: str | None = None) -> AbstractAsyncContextManager[Table]: ...

        def _rebuilt_on_use(self, table: Table) -> None: ...

        def _recover(self, table: Table) -> Any: ...

        def _decoded(self, table: Table) -> None: ...

        # bot.service_lobby
        @staticmethod
        def _require_host(table: Table, user_id: int, manage_channels: bool, action: str = "control") -> None: ...

        # bot.service_play
        async def _commit(self, table: Table, working: Any, moves: list[tuple[int, str]],
                          events: list[tuple[int, Event]], before: TurnKey | None, seats: bool = False,
                          announce: bool = False) -> MoveOutcome: ...

        # bot.service_clock
        def _clock_changed(self, table: Table) -> None: ...

        def _clock_for(self, table: Table, new_turn: bool, to_act: list[int]) -> ClockUpdate | None: ...

        # bot.service_results
        def _record_results(self, record: TableRecord, game: AnyGame, state: Any) -> None: ...
