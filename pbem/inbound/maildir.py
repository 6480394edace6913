"""A Maildir folder read as files: which messages are unseen, and marking them seen or
moving them aside, without parsing any of them.

A Maildir (maildir(5)) keeps each message in a file of its own: new/ holds messages no
reader has looked at; cur/ holds the others, their flags after ":2," in the file name
("S": seen). Python's mailbox module parses each message to read its flags, and a message
that cannot be parsed (1,000 nested parts) stops it; here nothing is parsed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

QUARANTINE = ".Quarantine"   # a Maildir++ subfolder, shown as "Quarantine" by mail programs


@dataclass(frozen=True)
class Message:
    folder: Path
    subdir: str      # "new" or "cur"
    name: str        # the file's name: a unique key, then ":2,FLAGS" in cur/

    @property
    def path(self) -> Path:
        return self.folder / self.subdir / self.name

    @property
    def key(self) -> str:
        return self.name.split(":", 1)[0]

    def read(self) -> bytes:
        return self.path.read_bytes()

    def mark_seen(self) -> None:
        """Into cur/ with the S flag, keeping its other flags."""
        flags = self.name.split(":2,", 1)[1] if ":2," in self.name else ""
        flags = "".join(sorted(set(flags) | {"S"}))
        os.replace(self.path, self.folder / "cur" / f"{self.key}:2,{flags}")

    def move_to_quarantine(self) -> None:
        """Into the folder's .Quarantine subfolder, unseen, for the operator to look at."""
        target = self.folder / QUARANTINE
        for subdir in ("tmp", "new", "cur"):
            (target / subdir).mkdir(parents=True, exist_ok=True)
        (target / "maildirfolder").touch()
        os.replace(self.path, target / "new" / self.key)


def unseen(folder: str | Path) -> list[Message]:
    """The messages not yet seen, oldest delivery first (by the file's time, then its key)."""
    folder = Path(folder)
    found = []
    for subdir in ("new", "cur"):
        for entry in os.scandir(folder / subdir):
            if entry.name.startswith(".") or not entry.is_file():
                continue
            flags = entry.name.split(":2,", 1)[1] if ":2," in entry.name else ""
            if "S" not in flags:
                found.append((entry.stat().st_mtime, entry.name, Message(folder, subdir, entry.name)))
    return [message for _, _, message in sorted(found, key=lambda item: item[:2])]
