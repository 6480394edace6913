"""Babylonia (Reiner Knizia, 2019) for 2 to 4 players: see docs/games/babylonia-rulings.md."""

from .game import GAME, Babylonia

__all__ = ["GAME", "Babylonia"]
