"""Each game's decoded position, kept by the process that last stored it, so that its next move there neither
reads nor decodes the snapshot (`rules.load` is a tenth of a move's server time).

An entry is the MD5 digest of the snapshot's JSON text as stored and the `rules.State` that text encodes. A move
sends the digest with the statement that locks the game row (games/store/move_sql.py), and PostgreSQL sends the snapshot
back only when the stored text's digest differs: another process moved the game, or anything else rewrote the
snapshot, seq or no seq. The comparison is made on the locked row, so no write can come between it and the move.

A move takes its entry out (the state is then its own to change) and puts the new one back only once its
transaction has committed: a move that fails, or runs inside an outer transaction (tests), leaves none.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

import rules

# Games a process remembers (the most recently stored). A state is some 15-30 KB of Python objects.
LIMIT = 1000

_entries: OrderedDict[int, tuple[str, rules.State]] = OrderedDict()
_lock = threading.Lock()


def digest(text: str) -> str:
    """The digest PostgreSQL's md5() gives for this text (UTF-8, the database's encoding)."""
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def known(game_id: int) -> str | None:
    """The digest of the snapshot this process holds for the game, if any."""
    entry = _entries.get(game_id)
    return entry[0] if entry is not None else None


def take(game_id: int, expected: str) -> rules.State | None:
    """The held state whose digest is `expected`, removed from the cache (the caller now owns it); None if another
    thread took it meanwhile (its move failed) or it was replaced."""
    with _lock:
        entry = _entries.pop(game_id, None)
    if entry is None or entry[0] != expected:
        return None
    return entry[1]


def keep(game_id: int, text_digest: str, state: rules.State) -> None:
    """Hold `state`, whose stored snapshot has this digest: call only after its transaction committed."""
    with _lock:
        _entries[game_id] = (text_digest, state)
        _entries.move_to_end(game_id)
        while len(_entries) > LIMIT:
            _entries.popitem(last=False)


def forget(game_id: int | None = None) -> None:
    """Drop one game's entry, or every entry."""
    with _lock:
        if game_id is None:
            _entries.clear()
        else:
            _entries.pop(game_id, None)
