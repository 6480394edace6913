"""The errors every game engine raises.

One base class, a few kinds. Each carries what the player wrote and where:
`step` is the 1-based number of the step in a submission (None when the error
is not about one step), `text` is that step as written. The message is one
sentence a player understands; `str(error)` prefixes it with the step.
"""

from __future__ import annotations

from .phrases import Phrase, phrase


class GameError(ValueError):
    """Base of every error an engine raises on bad input."""

    def __init__(self, message: str | Phrase, step: int | None = None, text: str | None = None):
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

    def said(self) -> str:
        """The error as `str(error)` says it, as a phrase a server says in its reader's
        language (the message is a phrase when the engine made it one)."""
        if self.step is None:
            return self.message
        if self.text:
            return phrase("step {step} ({text}): {message}", step=self.step, text=self.text,
                          message=self.message)
        return phrase("step {step}: {message}", step=self.step, message=self.message)

    def to_json(self) -> dict[str, str | int | None]:
        return {"error": self.said(), "step": self.step}


class NotationError(GameError):
    """The text cannot be read as steps of the game's notation."""


class IllegalStep(GameError):
    """The step reads well but breaks a rule in the position where it is played."""


class WrongDecision(GameError):
    """The submission is not what the game waits for (wrong seat, wrong moment, game over)."""


class PositionError(GameError):
    """A position (file or JSON) is malformed; the message names the field."""
