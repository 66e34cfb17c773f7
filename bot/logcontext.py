"""Log lines that say where they come from: the shard, the server and the
match. ``bind(guild=..., match=...)`` sets them for the current task (and the
tasks it starts, by :mod:`contextvars`); :class:`ContextFilter` writes them
into every record as ``record.where``, e.g. ``[shard 1 guild 8138 match 42]``
(empty outside any binding)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar

_SHARD: ContextVar[int | None] = ContextVar("gueridon_shard", default=None)
_GUILD: ContextVar[int | None] = ContextVar("gueridon_guild", default=None)
_MATCH: ContextVar[int | None] = ContextVar("gueridon_match", default=None)
_VARS = {"shard": _SHARD, "guild": _GUILD, "match": _MATCH}

FORMAT = "%(asctime)s %(levelname)-8s %(name)s %(where)s%(message)s"


@contextlib.contextmanager
def bind(**ids: int | None) -> Iterator[None]:
    """``with bind(shard=1, guild=g, match=m):`` the log lines written inside
    (in this task) carry these ids. A ``None`` leaves that id as it was."""
    tokens = []
    for name, value in ids.items():
        if value is not None:
            tokens.append((_VARS[name], _VARS[name].set(value)))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


def set_ids(**ids: int | None) -> None:
    """Set ids for the rest of the current task (a task started for one match)."""
    for name, value in ids.items():
        if value is not None:
            _VARS[name].set(value)


def where() -> str:
    parts = [f"{name} {var.get()}" for name, var in _VARS.items() if var.get() is not None]
    return f"[{' '.join(parts)}] " if parts else ""


class ContextFilter(logging.Filter):
    """Adds ``record.where``; install it on the handlers (``install()``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.where = where()
        return True


def install(handler: logging.Handler) -> None:
    handler.addFilter(ContextFilter())
    handler.setFormatter(logging.Formatter(FORMAT))
