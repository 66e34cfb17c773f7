"""placeholder"""

from __future__ import annotations

from typing import Any

from ...text import Msg


def describe_action(state: Any, seat: Any, action: Any) -> Msg:
    return Msg.of("x")


def action_menu(state: Any, seat: Any, actions: Any) -> Any:
    return []


def decision_text(d: Any, names: Any) -> Msg:
    return Msg.of("x")


def describe_event(e: Any, names: Any) -> Msg | None:
    return None


def summary(v: Any, names: Any) -> Msg:
    return Msg.of("x")


def rules_details() -> Msg:
    return Msg.of("x")
