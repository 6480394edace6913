"""Replayed states kept in memory, keyed by game and point of the log.

Loading a game then reads only the events written since it was last loaded
in this process, so the cost of a page does not grow with the game's length.
A cached entry is trusted only while its last event is still the log's event
at that point (a rolled-back write, or a wiped database, makes it miss).
Engines never change a state they are given, so cached states are shared.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any


class ReplayCache:
    def __init__(self, size: int = 2000):
        self.size = size
        self._entries: OrderedDict[str, tuple[tuple[dict, ...], Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, game_id: str) -> tuple[tuple[dict, ...], Any] | None:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None:
                self._entries.move_to_end(game_id)
            return entry

    def put(self, game_id: str, events: tuple[dict, ...], state: Any) -> None:
        if self.size <= 0:
            return
        with self._lock:
            self._entries[game_id] = (events, state)
            self._entries.move_to_end(game_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
