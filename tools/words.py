"""One word, one meaning (issue 27): the renames, as a table anyone can run again.

    python tools/words.py          # rewrite the files (a second run changes nothing)
    python tools/words.py --check  # list what would change, exit 1 if anything would

Each row is (pattern, replacement, files): `pattern` is a regular expression matched at word
boundaries (written into it, with look-arounds where a name must be left alone), `files` a glob
from the repository's root. Run it after merging a branch that still uses the old names.

What stays, on purpose: database columns (`games.owed`, `events.owed`, every `kind` column),
JSON fields of the API and of the seat views ("owed", "owes", "kind"), and migrations: those
are wire formats, read by stored data and by clients.

The words, each with its one meaning:
- "owe"/"owed": a decision a seat has to make (`Loaded.decision_of`, `computers.owed`). The
  seats that have one are `seats_to_act` (as `Engine.to_act`), not "owed"; the replies an LMTP
  server still has to give are `_replies_due`.
- "seq": a point of the log; "nonce": what a seat link signs. `Link.mark` was either.
- "time out": the game clock running out (a seat's time limit); the database's waits for a
  lock or a statement are `waits` (pbem/store/waits.py).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = ("pbem/**/*.py", "tests/**/*.py", "docs/**/*.md")

#: (pattern, replacement, globs)
RENAMES: list[tuple[str, str, tuple[str, ...]]] = [
    # The seats that owe a decision are the seats to act (the engine's own word), not "owed".
    (r"\bowed_seats\b", "seats_to_act", CODE),
    # ... and so are the local lists of them (the `owed` columns, `x.owed` and `owed=`, stay;
    # only the code forms are named, so a comment's "a decision owed" keeps its word).
    (r"(?<![.\w`])owed(?=(, created_at| = \[| = gamelog| is None:| or \[\]|\)$| !=|\}\"| :=|\[0\]))",
     "to_act",
     ("pbem/policy/deadlines.py", "pbem/policy/clocks.py", "pbem/store/verify.py",
      "pbem/games/babel_tower/cli.py")),
    (r"(?<=for seat in )owed:", "to_act:", ("pbem/policy/deadlines.py",)),
    (r"rows written before `owed` existed", "rows written before the `owed` column existed",
     ("pbem/policy/deadlines.py",)),
    (r"(?<![.\w`])owed\b(?!=)", "to_act", ("pbem/views/homeview.py",)),
    (r"\bstart_owed\b", "start_to_act", ("pbem/views/homeview.py",)),
    # The replies an LMTP session still owes the client for one DATA.
    (r"\b_owed\b", "_replies_due", ("pbem/inbound/lmtp.py",)),
    (r"(?<![.\w])owed, self\._replies_due", "due, self._replies_due", ("pbem/inbound/lmtp.py",)),
    (r"range\(owed\)", "range(due)", ("pbem/inbound/lmtp.py",)),
    (r"replies the end of the current DATA owes", "replies due at the end of the current DATA",
     ("pbem/inbound/lmtp.py",)),
    (r"how many replies the end owes", "how many replies are due at the end",
     ("pbem/inbound/lmtp.py",)),
    # "Time out" is the game clock; the database's own timeouts are its waits (store/waits.py).
    (r"\btest_database_timeouts\b", "test_database_waits", CODE + ("Makefile", ".github/**/*.yml")),
    # A link's `mark` was a seq (turn link) or a nonce (seat link): now `Link.seq` and
    # `Link.nonce` (done by hand: which one a `link.mark` means depends on the link's kind).
]

#: Files renamed with `git mv` (old, new), before the rows above run.
MOVES: list[tuple[str, str]] = [
    ("tests/production/test_database_timeouts.py", "tests/production/test_database_waits.py"),
]


def files(globs: tuple[str, ...]) -> list[Path]:
    found: set[Path] = set()
    for pattern in globs:
        found.update(p for p in ROOT.glob(pattern) if p.is_file() and "migrations" not in p.parts)
    return sorted(found)


def rewrite(check: bool = False) -> list[str]:
    """Every rename applied (or, with `check`, only listed); the files changed."""
    changed: dict[Path, str] = {}
    moved = [(old, new) for old, new in MOVES if (ROOT / old).exists()]
    if not check:
        for old, new in moved:
            subprocess.run(["git", "mv", old, new], cwd=ROOT, check=True)
    for pattern, replacement, globs in RENAMES:
        regex = re.compile(pattern)
        for path in files(globs):
            text = changed.get(path) or path.read_text(encoding="utf-8")
            new = regex.sub(replacement, text)
            if new != text:
                changed[path] = new
    if not check:
        for path, text in changed.items():
            path.write_text(text, encoding="utf-8")
    return [f"{old} -> {new}" for old, new in moved] + [str(p.relative_to(ROOT)) for p in sorted(changed)]


if __name__ == "__main__":
    check = "--check" in sys.argv[1:]
    names = rewrite(check)
    for name in names:
        print(("would change " if check else "changed ") + name)
    sys.exit(1 if check and names else 0)
