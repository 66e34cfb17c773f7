"""Readers of state formats the engine no longer writes.

A saved state names its schema (``{"game", "schema", "state"}``); a game's
``legacy_readers`` maps each older schema number to one of the functions
here, and :meth:`engine.core.Game.decode_state` / ``load_state`` call them
only for those numbers. Nothing here is on the path of a state saved by the
current engine.

* Between Battle and Belle Position, schema 1: the former reflective codec
  wrote exactly the JSON the msgspec codec writes (dataclasses as objects by
  field name, tuples as arrays; their states hold no sets and no mappings), so
  schema 1 stays their current schema and needs no reader here.
* Via Belli, schema 1: the compact, hand-written format (cards on the table
  and players as arrays). :func:`read_via_belli_v1` reads it with Via Belli's
  own ``_decode``, kept for that purpose only.
"""

from __future__ import annotations

import importlib
from typing import Any

from .errors import BadRecord

# Where Via Belli's compact reader lives: the package's codec module once
# engine/games/via_belli.py is split into a package, the module before.
_VIA_BELLI_CODEC_MODULES = ("engine.games.via_belli.codec", "engine.games.via_belli")


def read_via_belli_v1(data: Any) -> Any:
    """A Via Belli state saved in the compact format of schema 1."""
    decode = _via_belli_compact_decoder()
    try:
        return decode(data)
    except BadRecord:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise BadRecord(f"not a Via Belli state of schema 1: {exc!r}") from None


def _via_belli_compact_decoder() -> Any:
    for name in _VIA_BELLI_CODEC_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        decode = getattr(module, "_decode", None)
        if decode is not None:
            return decode
    raise BadRecord("this engine has no reader for Via Belli states of schema 1")
