"""The contract every game implements, and the values it trades in.

A game is a stateless object (one instance in :data:`engine.GAMES`) whose
methods are pure functions of immutable states:

* ``setup(options, seats, seed) -> state``
* ``pending(state) -> {seat: Decision}``: who must decide now (empty when over)
* ``legal_actions(state, seat) -> [action]``
* ``apply(state, seat, action) -> (state, events)``: raises :class:`RulesError`
* ``view(state, seat | None) -> view``: what a seat (or a spectator) may see
* ``outcome(state) -> Outcome | None``
* ``format_action`` / ``parse_action``: the text notation
* ``encode_state`` / ``decode_state`` (parsed JSON) and ``dump_state`` /
  ``load_state`` (bytes): the state codec, with a schema version
* ``determinize(state, seat, seed)``: resample what ``seat`` cannot see
* ``sample_state(view, seed)`` (optional, for search bots): a state consistent
  with a seat's view
"""

from __future__ import annotations

import abc
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from . import codec, rng
from .errors import BadOptions, BadRecord, NotYourTurn, RulesError
from .text import Msg

Seat = int
S = TypeVar("S")
A = TypeVar("A")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Decision:
    """What one pending seat must decide.

    ``kind`` is a stable key (``"turn"``, ``"choose-pile"`` ...); ``params``
    the values the game's sentence needs (:meth:`Game.decision_text` turns
    both into a :class:`~engine.text.Msg`).
    """

    kind: str
    params: tuple[tuple[str, str | int], ...] = ()
    optional: bool = False
    """A chance to react the seat may let pass (a response window), not a
    move the game waits for: hosts' clocks pass it without counting the
    absence against the player."""

    def param(self, key: str) -> str | int | None:
        for k, v in self.params:
            if k == key:
                return v
        return None


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, and who may know it.

    ``to`` is ``None`` for a public event, else the seats that may see
    ``data``. Everybody else sees ``redacted`` instead (or nothing at all
    when ``redacted`` is ``None``). ``data`` holds JSON-ready values only.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None
    redacted: Mapping[str, Any] | None = None

    def for_seat(self, seat: Seat | None) -> Event | None:
        """The event as ``seat`` (``None``: a spectator) sees it, or None."""
        if self.to is None or (seat is not None and seat in self.to):
            return self
        if self.redacted is None:
            return None
        return Event(self.kind, self.redacted, None, None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": codec.to_jsonable(dict(self.data))}
        if self.to is not None:
            out["to"] = sorted(self.to)
        if self.redacted is not None:
            out["redacted"] = codec.to_jsonable(dict(self.redacted))
        return out

    @staticmethod
    def from_json(d: Mapping[str, Any]) -> Event:
        to = d.get("to")
        return Event(
            kind=d["kind"],
            data=d.get("data", {}),
            to=None if to is None else frozenset(to),
            redacted=d.get("redacted"),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final ranking, best first; seats in the same group are tied."""

    ranking: tuple[tuple[Seat, ...], ...]
    reason: str
    scores: tuple[int, ...] | None = None

    @property
    def winner(self) -> Seat | None:
        """The single winning seat, or None when the first place is shared."""
        first = self.ranking[0] if self.ranking else ()
        return first[0] if len(first) == 1 else None

    def place(self, seat: Seat) -> int:
        """1-based place of a seat (tied seats share a place)."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place
            place += len(group)
        raise KeyError(seat)


@dataclass(frozen=True, slots=True)
class MenuStep:
    """One choice on the way to an action in a host's menus (see
    :meth:`Game.action_menu`).

    ``key`` identifies the choice within its level (entries whose paths share
    the same keys so far share the same menu so far); ``label`` is the text
    shown and ``detail`` an optional second line (the notation, a cost): a
    :class:`~engine.text.Msg` the host translates, or a plain string that
    reads the same in every language (a notation, a card name).
    """

    key: str
    label: Msg | str
    detail: Msg | str = ""


class NoStateSampler(TypeError):
    """The game cannot rebuild a state from a view (it has no ``sample_state``),
    so its bots cannot search over determinisations."""


class GameOptions(BaseModel):
    """Base of every game's options model: frozen, unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class GameInfo:
    """What a host shows of a game before it starts. Its name and summary are
    catalogue texts (``game-<id>-name``, ``game-<id>-summary``)."""

    id: str
    min_seats: int
    max_seats: int
    options_model: type[GameOptions]
    hidden_information: bool
    chance: bool
    simultaneous: bool


class Game(abc.ABC, Generic[S, A, V]):
    """Base class of every game. Subclasses set :attr:`info`,
    :attr:`state_type` and :attr:`schema_version`, and implement the
    abstract methods. All methods are pure."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[Any]]
    schema_version: ClassVar[int] = 1
    rules_version: ClassVar[str] = "1"
    coverage_events: ClassVar[frozenset[str]] = frozenset()
    """Event kinds that random playouts must produce (the conformance test
    checks them, so every card ability is exercised)."""
    conformance_options: ClassVar[tuple[str, ...]] = ("",)
    """Option texts the conformance test cycles through."""
    quick_options: ClassVar[str] = ""
    """The options (the text ``/lobby create options:`` takes, read by
    :meth:`options`) of the shortest complete game, e.g. ``"hp=3"``: for
    tests, smoke runs and benchmarks that play whole games of every game.
    Empty: the defaults are short enough."""
    conformance_games: ClassVar[int] = 1000
    """How many random games the conformance test plays (spread over seat counts)."""
    max_actions: ClassVar[int] = 10_000
    """A bound on the number of actions of any game (conformance test)."""

    # ---- options -----------------------------------------------------
    def options(self, raw: GameOptions | Mapping[str, Any] | str | None = None) -> GameOptions:
        """Validate options given as a model, a mapping or ``key=value`` text."""
        model = self.info.options_model
        if isinstance(raw, model):
            return raw
        if raw is None:
            return model()
        data = parse_options_text(raw) if isinstance(raw, str) else dict(raw)
        valid = sorted(model.model_fields)
        keys = ", ".join(f"`{k}`" for k in valid)
        unknown = sorted(set(data) - set(valid))
        if unknown:
            named = ", ".join(f"`{k}`" for k in unknown)
            raise BadOptions(
                Msg.of("core-unknown-option", named=named, keys=keys),
                unknown=", ".join(unknown),
                valid=", ".join(valid),
            )
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            raise _bad_options(exc, keys, valid) from None

    def options_text(self, options: GameOptions) -> str:
        """The options that differ from the defaults, as ``key=value`` text."""
        defaults = self.info.options_model()
        parts = []
        for name in self.info.options_model.model_fields:
            value = getattr(options, name)
            if value != getattr(defaults, name):
                parts.append(f"{name}={_option_value_text(value)}")
        return " ".join(parts)

    # ---- the rules ---------------------------------------------------
    @abc.abstractmethod
    def setup(self, options: GameOptions, seats: int, seed: int) -> S: ...

    def setup_events(self, state: S) -> tuple[Event, ...]:
        """Events of the setup itself (deals, first player), for the log of a
        new match; games whose setup reveals nothing return ()."""
        return ()

    @abc.abstractmethod
    def pending(self, state: S) -> Mapping[Seat, Decision]: ...

    @abc.abstractmethod
    def legal_actions(self, state: S, seat: Seat) -> Sequence[A]: ...

    @abc.abstractmethod
    def apply(self, state: S, seat: Seat, action: A) -> tuple[S, tuple[Event, ...]]: ...

    @abc.abstractmethod
    def view(self, state: S, seat: Seat | None) -> V: ...

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None: ...

    @abc.abstractmethod
    def seat_count(self, state: S) -> int: ...

    @abc.abstractmethod
    def resign(self, state: S, seat: Seat) -> tuple[S, tuple[Event, ...]]:
        """The seat leaves the game for good and takes the last place among
        those still playing; the game goes on without it if the rules allow
        (else it ends). Allowed at any time before the end, in turn or not."""

    @abc.abstractmethod
    def determinize(self, state: S, seat: Seat | None, seed: int) -> S:
        """A state that ``seat`` cannot tell apart from ``state``: everything
        it may not see (other hands, deck orders, the generator) resampled
        consistently with what it has seen."""

    def random_action(self, state: S, seat: Seat, rng_state: int) -> tuple[A, int]:
        """One legal action of ``seat`` drawn at random, and the generator's
        next state: what random playouts (the engine benchmark, the bots'
        rollouts) play.

        Default: list :meth:`legal_actions` and pick one uniformly. A game may
        override it with a cheaper draw that never lists every action (for
        example the card first, then its spot); it must stay pure and return
        only actions that :meth:`legal_actions` lists, but need not be uniform
        over that list. The conformance test checks it."""
        legal = self.legal_actions(state, seat)
        index, rng_state = rng.randbelow(rng_state, len(legal))
        return legal[index], rng_state

    def undo_blocker(
        self, before: S, seat: Seat, action: A, after: S, events: Sequence[Event]
    ) -> str | None:
        """Why ``seat``'s ``action`` (``before`` → ``after``, with ``events``)
        may not be taken back, or None when it may (undo by consent).

        Default (:func:`engine.undo.undo_blocker`): ``"chance"`` when it drew
        from the generator, ``"private-event"`` when an event went privately
        to another seat, ``"reveal"`` when the acting seat's view or the
        public view after it depends on what that seat could not see before
        (checked on a few :meth:`determinize` worlds), ``"ended"`` when it
        ended the game. A game may override it (it must stay pure)."""
        from .undo import undo_blocker

        return undo_blocker(self, before, seat, action, after, events)

    def undoable(self, before: S, seat: Seat, action: A, after: S, events: Sequence[Event]) -> bool:
        """Whether the action may be taken back (see :meth:`undo_blocker`)."""
        return self.undo_blocker(before, seat, action, after, events) is None

    def sample_state(self, view: V, seed: int) -> S:
        """A full state consistent with a seat's ``view``: what the view shows
        is kept, everything hidden is drawn at random from ``seed``, so that
        ``view(sample_state(v, k), v.observer) == v`` for any ``k``.

        Optional: the bots' ``hard`` level (search over determinisations,
        :mod:`engine.bots`) needs it, because bots only ever get a view, never
        the state. Games without one raise :class:`NoStateSampler`."""
        raise NoStateSampler(
            f"{self.info.id} has no sample_state(view, seed): a search bot cannot "
            "rebuild states from its views (see engine/bots/__init__.py)"
        )

    # ---- notation ----------------------------------------------------
    @abc.abstractmethod
    def format_action(self, action: A) -> str: ...

    @abc.abstractmethod
    def parse_action(self, text: str) -> A: ...

    # ---- texts: keys and parameters (``engine.text.Msg``); hosts translate ----
    def describe_action(self, state: S, seat: Seat, action: A) -> Msg:
        """A short label for buttons and autocomplete (default: the notation)."""
        return Msg.of("action-notation", notation=self.format_action(action))

    def action_menu(self, state: S, seat: Seat) -> Sequence[tuple[A, tuple[MenuStep, ...]]]:
        """The actions a host offers in its menus, each with its path of
        choices (kind of action, card, anchor, spot ...), for hosts that let a
        player pick a move in steps rather than from one long list.

        Contract: every action is accepted by :meth:`apply` now and appears
        once; no path is empty, and no path is a prefix of another (a choice
        either plays an action or opens a level, never both); keys and order
        do not depend on the language. Default: one level, the legal actions
        themselves, labelled by :meth:`describe_action` (games whose actions
        are short lists)."""
        return [
            (
                a,
                (
                    MenuStep(
                        self.format_action(a),
                        self.describe_action(state, seat, a),
                        self.format_action(a),
                    ),
                ),
            )
            for a in self.legal_actions(state, seat)
        ]

    def describe_event(self, event: Event, names: Sequence[str]) -> Msg | None:
        """One line for the match log (None: not worth a line). ``names``
        (by seat) are passed as plain string parameters."""
        return None

    def summary(self, view: V, names: Sequence[str]) -> Msg | None:
        """A few lines of text describing a view (console, accessibility)."""
        return None

    def rules_details(self) -> Msg | None:
        """Extra rules text for hosts' rules command (e.g. every character's
        abilities, printed face up on the table); None by default."""
        return None

    def decision_text(self, decision: Decision, names: Sequence[str] = ()) -> Msg:
        """The sentence for a pending decision; ``names`` (by seat) let it name
        players instead of numbering them. Default: the decision's kind as
        the catalogue key, with its parameters."""
        return Msg.of(decision.kind, **dict(decision.params))

    def apply_text(self, state: S, seat: Seat, text: str) -> tuple[S, tuple[Event, ...]]:
        return self.apply(state, seat, self.parse_action(text))

    def check_turn(self, state: S, seat: Seat) -> None:
        """Raise :class:`NotYourTurn` (or GameOver) unless ``seat`` is pending."""
        if seat not in self.pending(state):
            from .errors import GameOver

            if self.outcome(state) is not None:
                raise GameOver(Msg.of("core-game-over"))
            raise NotYourTurn(Msg.of("core-not-your-turn"), seat=seat)

    # ---- JSON codec --------------------------------------------------
    # A saved state is ``{"game": id, "schema": n, "state": ...}``. The state
    # is written by the msgspec codec (engine/codec.py) and read back by it
    # when ``n`` is :attr:`schema_version`; older schema numbers are read by
    # the game's :attr:`legacy_readers` (engine/codec_legacy.py), so
    # snapshots in existing databases keep loading.

    legacy_readers: ClassVar[Mapping[int, Callable[[Any], Any]]] = MappingProxyType({})
    """Readers of older schema numbers: ``{schema: reader}``, each taking the
    parsed JSON of the ``state`` field and returning a state."""

    def encode_state(self, state: S) -> dict[str, Any]:
        """The saved form as Python data (see :meth:`dump_state` for bytes)."""
        return {
            "game": self.info.id,
            "schema": self.schema_version,
            "state": codec.to_builtins(state),
        }

    def decode_state(self, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`encode_state` (parsed JSON), older schemas included."""
        schema = self._check_saved(data.get("game"), data.get("schema"))
        if schema == self.schema_version:
            state: S = codec.convert(self.state_type, data.get("state"))
            return state
        return self._read_legacy(schema, data.get("state"))

    def dump_state(self, state: S) -> bytes:
        """The saved form as JSON bytes, in one pass (what hosts store)."""
        if type(self).encode_state is not Game.encode_state:
            # a game that still writes its own format (until it moves to the
            # shared codec): its dict form is the saved form
            return json.dumps(self.encode_state(state), ensure_ascii=False).encode()
        return codec.encode(_Saved(self.info.id, self.schema_version, state))

    def load_state(self, data: bytes | str) -> S:
        """Inverse of :meth:`dump_state`; also reads every older schema."""
        if type(self).decode_state is not Game.decode_state:
            # a game that still reads with its own override
            try:
                parsed = json.loads(data)
            except ValueError as exc:
                raise BadRecord(f"not a saved state: {exc}") from None
            if not isinstance(parsed, dict):
                raise BadRecord("not a saved state: expected an object")
            return self.decode_state(parsed)
        saved = codec.read_envelope(data)
        schema = self._check_saved(saved.game, saved.schema)
        if schema == self.schema_version:
            state: S = codec.decode(self.state_type, saved.state)
            return state
        return self._read_legacy(schema, json.loads(bytes(saved.state)))

    def _check_saved(self, game: object, schema: object) -> int:
        if game != self.info.id:
            raise BadRecord(f"state of game {game!r}, not {self.info.id!r}")
        if type(schema) is not int or (
            schema != self.schema_version and schema not in self.legacy_readers
        ):
            known = sorted({self.schema_version, *self.legacy_readers})
            raise BadRecord(f"state schema {schema!r}; this engine reads {known}")
        return schema

    def _read_legacy(self, schema: int, data: Any) -> S:
        try:
            state: S = self.legacy_readers[schema](data)
        except BadRecord:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise BadRecord(f"not a {self.info.id} state of schema {schema}: {exc!r}") from None
        return state


@dataclass(frozen=True, slots=True)
class _Saved(Generic[S]):
    """What :meth:`Game.dump_state` writes (the fields of ``codec.Envelope``)."""

    game: str
    schema: int
    state: S


_EVOLVERS: dict[type[Any], Any] = {}


def evolve(obj: S, **changes: Any) -> S:
    """A copy of a frozen, slotted dataclass with some fields changed.

    Same result as :func:`dataclasses.replace`, several times faster: the
    per-class copier is generated once and skips ``__init__``. Unchanged
    fields are shared, never copied.
    """
    cls = type(obj)
    copier = _EVOLVERS.get(cls)
    if copier is None:
        copier = _make_evolver(cls)
    result: S = copier(obj, changes)
    return result


def _make_evolver(cls: type[Any]) -> Any:
    import dataclasses

    names = [f.name for f in dataclasses.fields(cls)]
    lines = ["def evolve(o, changes):", "    n = new(cls)"]
    lines += [f"    sa(n, {name!r}, o.{name})" for name in names]
    lines += [
        "    for k, v in changes.items():",
        "        if k not in fields:",
        "            raise TypeError(f'{cls.__name__} has no field {k!r}')",
        "        sa(n, k, v)",
        "    return n",
    ]
    scope: dict[str, Any] = {
        "new": object.__new__,
        "sa": object.__setattr__,
        "cls": cls,
        "fields": frozenset(names),
    }
    exec("\n".join(lines), scope)
    _EVOLVERS[cls] = scope["evolve"]
    return scope["evolve"]


def parse_options_text(text: str) -> dict[str, str]:
    """``"hp=12 between_rule=inclusive"`` (spaces, commas or semicolons) to a dict."""
    out: dict[str, str] = {}
    for chunk in text.replace(";", " ").split():
        if not chunk.strip(","):
            continue
        if "=" not in chunk:
            raise BadOptions(Msg.of("core-options-syntax", chunk=chunk), chunk=chunk)
        key, _, value = chunk.partition("=")
        key = key.strip().replace("-", "_")
        value = value.strip().strip(",")
        if key in out:
            raise BadOptions(
                Msg.of("core-option-twice", option=key, first=out[key], second=value), key=key
            )
        out[key] = value
    return out


def _carried_msg(err: Any) -> Msg | None:
    """The :class:`Msg` a validator's exception carries (``msg``, as a
    :class:`RulesError` has), if any: pydantic keeps the exception a
    validator raised as ``ctx["error"]``."""
    carried = getattr(err.get("ctx", {}).get("error"), "msg", None)
    return carried if isinstance(carried, Msg) else None


def _bad_options(exc: ValidationError, keys: str, valid: Sequence[str]) -> BadOptions:
    """The refusal of options that pydantic rejected. An error whose exception
    carries a :class:`Msg` reads as its option and that message
    (``core-bad-option-value``, in every language); the others are listed
    together as before (``core-bad-options``: pydantic's English text, the
    refused keys in other languages). Several parts are joined by
    ``core-join-semicolon``."""
    errors = exc.errors()
    fields = [".".join(str(p) for p in err["loc"]) for err in errors]
    parts: list[Msg] = []
    plain: list[tuple[str, Any]] = []
    for name, err in zip(fields, errors, strict=True):
        carried = _carried_msg(err)
        if carried is None:
            plain.append((name, err))
            continue
        option = getattr(err["ctx"]["error"], "option", None) or name or "options"
        parts.append(Msg.of("core-bad-option-value", option=f"`{option}`", reason=carried))
    problems = "; ".join(f"`{name or 'options'}`: {err['msg']}" for name, err in plain)
    if plain:
        refused = ", ".join(f"`{name}`" for name in dict.fromkeys(n for n, _ in plain) if name)
        parts.append(
            Msg.of(
                "core-bad-options",
                problems=problems,
                refused=refused or Msg.of("core-the-options"),
                keys=keys,
            )
        )
    msg = parts[-1]
    for part in reversed(parts[:-1]):
        msg = Msg.of("core-join-semicolon", first=part, rest=msg)
    return BadOptions(msg, problems=problems, valid=", ".join(valid))


def _option_value_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return "" if value is None else str(value)


__all__ = [
    "Decision",
    "Event",
    "Game",
    "GameInfo",
    "GameOptions",
    "MenuStep",
    "NotYourTurn",
    "Outcome",
    "RulesError",
    "Seat",
    "evolve",
    "parse_options_text",
]
