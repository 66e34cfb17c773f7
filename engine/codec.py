"""The state codec, on msgspec, and plain-JSON helpers for views and events.

**States** (frozen, slotted dataclasses of ``int``, ``str``, ``bool``,
``float``, ``None``, tuples, ``Literal``, ``Optional`` and other such
dataclasses) go through msgspec: :func:`encode` writes compact JSON bytes,
:func:`decode` reads them back with a decoder compiled once per type, and
:func:`to_builtins` / :func:`convert` do the same through plain Python data
(dicts and lists) for callers that hold JSON already parsed. Every round trip
is exact, ``decode(type(x), encode(x)) == x`` (the 64-bit generator state
included), and the JSON is the one the former reflective codec wrote:
dataclasses as objects keyed by field name, tuples as arrays (a test checks
it on random states of every game), so snapshots saved before the switch read
as they are. Refusals raise :class:`~engine.errors.BadRecord`.

**Plain JSON helpers**: :func:`to_jsonable` / :func:`from_jsonable` (and
:func:`dumps` / :func:`loads`) walk a value by reflection. They remain for
views, event data and options, whose exact JSON (frozensets sorted by their
JSON text, non-string keys turned into strings) golden tests hash; they are
not on the state path. Readers of older state formats live in
:mod:`engine.codec_legacy`.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

import msgspec

from .errors import BadRecord

T = TypeVar("T")

JSON = Any

# ---------------------------------------------------------------------------
# The state codec (msgspec)
# ---------------------------------------------------------------------------

_ENCODER = msgspec.json.Encoder()


def encode(value: object) -> bytes:
    """Compact JSON bytes of a state (or any value msgspec encodes: dataclasses,
    tuples, lists, dicts, scalars). Field order is the dataclass's."""
    return _ENCODER.encode(value)


_DECODERS: dict[Any, msgspec.json.Decoder[Any]] = {}


def _typed_decoder(tp: Any) -> msgspec.json.Decoder[Any]:
    decoder = _DECODERS.get(tp)
    if decoder is None:
        decoder = _DECODERS[tp] = msgspec.json.Decoder(tp)
    return decoder


def decode(tp: type[T], data: bytes | str) -> T:
    """Inverse of :func:`encode` for a value of type ``tp``; bad or foreign
    data raise :class:`BadRecord`."""
    try:
        result: T = _typed_decoder(tp).decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadRecord(f"not a {getattr(tp, '__name__', tp)}: {exc}") from None
    return result


def to_builtins(value: object) -> JSON:
    """The same JSON as :func:`encode`, as Python data (dicts, lists, scalars)."""
    return msgspec.to_builtins(value)


def convert(tp: type[T], data: JSON) -> T:
    """Inverse of :func:`to_builtins` (also reads ``json.loads`` output):
    strict, no string-to-number coercion; refusals raise :class:`BadRecord`."""
    try:
        result: T = msgspec.convert(data, tp, strict=True)
    except msgspec.ValidationError as exc:
        raise BadRecord(f"not a {getattr(tp, '__name__', tp)}: {exc}") from None
    return result


class Envelope(msgspec.Struct, frozen=True):
    """A saved state as the store keeps it: the game, the schema number and
    the state itself, read lazily (``msgspec.Raw``) so the schema decides how."""

    game: str
    schema: int
    state: msgspec.Raw


_ENVELOPE = msgspec.json.Decoder(Envelope)


def read_envelope(data: bytes | str) -> Envelope:
    """The game, schema and raw state of a saved state (:class:`BadRecord` if
    it is not one)."""
    try:
        return _ENVELOPE.decode(data)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise BadRecord(f"not a saved state: {exc}") from None


# ---------------------------------------------------------------------------
# Plain JSON helpers (views, event data, options): reflection, exact old output
# ---------------------------------------------------------------------------


def to_jsonable(value: object) -> JSON:
    """Plain JSON data (dicts, lists, str, int, float, bool, None) for a value."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    if isinstance(value, frozenset | set):
        items = [to_jsonable(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in _fields(type(value))}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


@cache
def _fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    return dataclasses.fields(cls)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: JSON) -> Any:
    """Rebuild a value of type ``tp`` from :func:`to_jsonable` output."""
    return _decoder(tp)(data)


@cache
def _decoder(tp: Any) -> Callable[[JSON], Any]:
    origin = get_origin(tp)
    args = get_args(tp)
    if tp is Any:
        return lambda d: d
    if tp in (int, str, bool, float):
        return _scalar(tp)
    if tp is type(None):
        return _none
    if origin is Literal:
        allowed = set(args)

        def lit(d: JSON) -> Any:
            if d not in allowed:
                raise BadRecord(f"{d!r} is not one of {sorted(map(str, allowed))}")
            return d

        return lit
    if origin in (Union, types.UnionType):
        subs = [_decoder(a) for a in args]
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            inner = _decoder(non_none[0])
            return lambda d: None if d is None else inner(d)

        def union(d: JSON) -> Any:
            for sub in subs:
                try:
                    return sub(d)
                except (BadRecord, TypeError, ValueError, KeyError):
                    continue
            raise BadRecord(f"{d!r} matches no type of {tp}")

        return union
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda d: tuple(item(x) for x in _list(d))
        items = [_decoder(a) for a in args]

        def fixed(d: JSON) -> tuple[Any, ...]:
            seq = _list(d)
            if len(seq) != len(items):
                raise BadRecord(f"expected {len(items)} items, got {len(seq)}")
            return tuple(f(x) for f, x in zip(items, seq, strict=True))

        return fixed
    if origin is frozenset:
        item = _decoder(args[0])
        return lambda d: frozenset(item(x) for x in _list(d))
    if origin is dict:
        key = _decoder(args[0])
        val = _decoder(args[1])
        return lambda d: {key(k): val(v) for k, v in _dict(d).items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        fields = [(f.name, _decoder(hints[f.name])) for f in _fields(tp)]
        # a field added later with a default may be missing from older saves
        optional = {
            f.name
            for f in _fields(tp)
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        }
        cls = tp

        def dc(d: JSON) -> Any:
            obj = _dict(d)
            extra = set(obj) - {name for name, _ in fields}
            if extra:
                raise BadRecord(f"unknown fields {sorted(extra)} for {cls.__name__}")
            missing = [name for name, _ in fields if name not in obj and name not in optional]
            if missing:
                raise BadRecord(f"missing field {missing[0]!r} for {cls.__name__}")
            return cls(**{name: dec(obj[name]) for name, dec in fields if name in obj})

        return dc
    raise TypeError(f"no JSON decoder for {tp!r}")


def _scalar(tp: type) -> Callable[[JSON], Any]:
    def dec(d: JSON) -> Any:
        if tp is float and isinstance(d, int) and not isinstance(d, bool):
            return float(d)
        if type(d) is not tp:
            raise BadRecord(f"expected {tp.__name__}, got {type(d).__name__}")
        return d

    return dec


def _none(d: JSON) -> None:
    if d is not None:
        raise BadRecord(f"expected null, got {d!r}")


def _list(d: JSON) -> list[Any]:
    if not isinstance(d, list):
        raise BadRecord(f"expected a list, got {type(d).__name__}")
    return d


def _dict(d: JSON) -> dict[str, Any]:
    if not isinstance(d, dict):
        raise BadRecord(f"expected an object, got {type(d).__name__}")
    return d


def dumps(value: object) -> str:
    """Compact, key-sorted JSON text of a value."""
    return json.dumps(to_jsonable(value), separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def loads(tp: type[T], text: str) -> T:
    """Inverse of :func:`dumps`."""
    result: T = from_jsonable(tp, json.loads(text))
    return result
