"""Replayed games kept in memory, keyed by game and point of the log.

Loading a game then reads only the events written since it was last loaded
in this process, so the cost of a page does not grow with the game's length.
A cached entry is trusted only while its last event is still the log's event
at that point (a rolled-back write, or a database restored to an older state,
makes it miss). Events are never changed once written, so older ones are not
checked again. A game cached without events is trusted only while its row is
still there: the operator may delete an unstarted game (`operations.delete_game`),
and every process must then stop showing it.
Engines never change a state they are given, so cached states are shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.store.gamelog import Cached


class ReplayCache:
    def __init__(self, size: int = 2000):
        self.size = size
        self._entries: OrderedDict[str, Cached] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Cached | None:
        """The game as last loaded in this process, or None."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None:
                self._entries.move_to_end(game_id)
            return entry

    def put(self, game_id: str, entry: Cached) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
