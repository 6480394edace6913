"""The errors every game engine raises.

One base class, a few kinds. Each carries what the player wrote and where:
`step` is the 1-based number of the step in a submission (None when the error
is not about one step), `text` is that step as written. The message is one
sentence a player understands; `str(error)` prefixes it with the step.
"""

from __future__ import annotations


class GameError(ValueError):
    """Base of every error an engine raises on bad input."""

    def __init__(self, message: str, step: int | None = None, text: str | None = None):
        super().__init__(message)
        self.message = message
        self.step = step
        self.text = text

    def at(self, step: int, text: str) -> GameError:
        """The same error, placed at a step of a submission."""
        return type(self)(self.message, step, text)

    def __str__(self) -> str:
        if self.step is None:
            return self.message
        if self.text:
            return f"step {self.step} ({self.text}): {self.message}"
        return f"step {self.step}: {self.message}"

    def to_json(self) -> dict[str, str | int | None]:
        return {"error": str(self), "step": self.step}


class NotationError(GameError):
    """The text cannot be read as steps of the game's notation."""


class IllegalStep(GameError):
    """The step reads well but breaks a rule in the position where it is played."""


class WrongDecision(GameError):
    """The submission is not what the game waits for (wrong seat, wrong moment, game over)."""


class PositionError(GameError):
    """A position (file or JSON) is malformed; the message names the field."""
