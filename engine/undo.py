"""Whether an action may be taken back (undo by consent).

The default rule (:meth:`engine.core.Game.undo_blocker` calls
:func:`undo_blocker`): an action can be undone when

* it drew nothing from the state's generator (the ``rng`` field is the same
  before and after: no die, no shuffle, no random pick);
* no event of it is addressed privately to another seat (nobody else was
  shown something in secret);
* neither the acting seat's view nor the public view after it depends on
  anything the acting seat could not see before: the action is applied to a
  few states the seat cannot tell apart from ``before``
  (``determinize(before, seat, k)``) and the views after them must all be
  the view after the real one (a card drawn from a face-down deck, a
  revealed ambush, a response the opponent may or may not have: all
  differ in some of those worlds);
* it did not end the game.

A game may override the hook. This module imports no other engine module
(the core calls it, so it must not import the core back): ``game`` is any
object with the contract's methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .errors import RulesError

SAMPLES = 3
"""How many indistinguishable worlds the reveal check tries."""

REASONS = ("nothing", "not-yours", "acted-since", "hidden", "over")
"""Why :meth:`engine.Match.undo` refuses: nothing to take back, the last
entry is not the seat's own, someone acted since, the action revealed hidden
information (or drew from the generator), the match is over."""

BLOCKERS = ("chance", "private-event", "reveal", "ended")
"""What :func:`undo_blocker` reports: the action drew from the generator, an
event of it went privately to another seat, a view after it depends on what
the acting seat could not see, or it ended the game."""


def undo_blocker(
    game: Any,
    before: Any,
    seat: int,
    action: Any,
    after: Any,
    events: Sequence[Any],
    samples: int = SAMPLES,
) -> str | None:
    """None when the action may be taken back, else one of :data:`BLOCKERS`."""
    if game.outcome(after) is not None:
        return "ended"
    if getattr(before, "rng", None) != getattr(after, "rng", None):
        return "chance"
    for event in events:
        to = event.to
        if to is not None and any(other != seat for other in to):
            return "private-event"
    mine = game.view(after, seat)
    public = game.view(after, None)
    for k in range(samples):
        world = game.determinize(before, seat, 7919 * (k + 1))
        try:
            world_after, _ = game.apply(world, seat, action)
        except RulesError:
            # legal in the real state only: its legality told the seat
            # something it could not see
            return "reveal"
        if game.view(world_after, seat) != mine or game.view(world_after, None) != public:
            return "reveal"
    return None
