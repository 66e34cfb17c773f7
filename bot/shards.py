"""Which process serves which server: Discord's shard formula, and the set of
shards one process owns.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``,
and direct messages to shard 0 (https://discord.com/developers/docs/events/
gateway#sharding). A match belongs to the process that owns its server's
shard; a match with no server (a direct-message or console match) belongs to
shard 0. One process owning every shard (the default) owns everything.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that receives ``guild_id``'s events (0 for direct messages)."""
    if guild_id is None or count <= 1:
        return 0
    return (guild_id >> 22) % count


def parse_ids(text: str) -> frozenset[int]:
    """``"0,2"``, ``"0-2"`` or ``"0-1,4"``: shard ids (what ``SHARD_IDS`` holds)."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        if "-" in part:
            low, high = part.split("-", 1)
            first, last = int(low), int(high)
            if first > last:
                raise ValueError(f"shard range {part!r} runs backwards")
            ids.update(range(first, last + 1))
        else:
            ids.add(int(part))
    if not ids:
        raise ValueError("no shard id given")
    return frozenset(ids)


@dataclass(frozen=True)
class ShardSet:
    """The shards one process owns, out of ``count``."""

    count: int = 1
    ids: frozenset[int] = field(default_factory=lambda: frozenset({0}))

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("the shard count is at least 1")
        bad = sorted(i for i in self.ids if not 0 <= i < self.count)
        if bad or not self.ids:
            raise ValueError(f"shard ids {bad or '(none)'} outside 0..{self.count - 1}")

    @classmethod
    def every(cls, count: int = 1) -> ShardSet:
        """All ``count`` shards: the single process of a small bot."""
        return cls(count, frozenset(range(count)))

    @classmethod
    def of(cls, count: int | None, ids: Iterable[int] | None) -> ShardSet:
        """From the settings: no count means one shard; no ids means all of them."""
        total = count or 1
        return cls.every(total) if ids is None else cls(total, frozenset(ids))

    @property
    def is_all(self) -> bool:
        return len(self.ids) == self.count

    @property
    def has_direct_messages(self) -> bool:
        """Shard 0 receives every direct message, and owns matches with no server."""
        return 0 in self.ids

    def owns(self, guild_id: int | None) -> bool:
        return self.is_all or shard_of(guild_id, self.count) in self.ids

    def sql(self, column: str) -> tuple[str, list[int]]:
        """A predicate on a guild-id column, with ``?`` placeholders, and its
        parameters: true for the rows this set owns (SQLite and PostgreSQL
        both have ``>>`` and ``%`` on 64-bit integers)."""
        if self.is_all:
            return "1 = 1", []
        ids = sorted(self.ids)
        marks = ", ".join("?" for _ in ids)
        owned = f"(({column} >> 22) % ?) IN ({marks})"
        if self.has_direct_messages:
            return f"({column} IS NULL OR {owned})", [self.count, *ids]
        return f"({column} IS NOT NULL AND {owned})", [self.count, *ids]

    def describe(self) -> str:
        """``"0-2/3"``, ``"1/3"``: for logs."""
        ids = sorted(self.ids)
        if len(ids) > 1 and ids == list(range(ids[0], ids[-1] + 1)):
            return f"{ids[0]}-{ids[-1]}/{self.count}"
        return ",".join(map(str, ids)) + f"/{self.count}"
