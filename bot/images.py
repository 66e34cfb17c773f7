"""The host's images, each drawn once (no Discord import).

After an action the same board is wanted by the match's channel, by every
spectator following it by DM and by ``/board``; a seat's private image is
wanted again when its message is sent again with nothing changed. The
:class:`ImageCache` keeps the last image of each kind per match (the board
per language, the private image and the numbered spots per seat and
language) and hands it out again while what it was drawn from is the same:

* the same match version (a state never changes once committed: a version
  names one state, an undo makes a new version), or else
* equal inputs (the view, the names, the choices drawn): a seat whose view
  did not change gets the image it already has, whatever the version.

Drawing runs in the render workers; two callers asking for the same image at
once share one drawing (the second awaits the first's future). Memory is
bounded twice: one entry per (kind, match, seat, language), and a budget of
bytes over all of them, the least recently used entries going first.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import i18n

DEFAULT_BUDGET = 64 * 1024 * 1024  # bytes of PNG kept at most (about 250 boards)

Key = tuple[str, int, int, str]  # (kind, match id, seat or -1, language)


@dataclass
class _Entry:
    version: int | None
    inputs: Any
    image: asyncio.Future[Any]
    size: int = 0


class ImageCache:
    """The last image of each kind per match (see the module's docstring)."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.size = 0  # bytes held by finished images
        self.hits = 0
        self.draws = 0
        self._entries: OrderedDict[Key, _Entry] = OrderedDict()

    async def get(
        self,
        kind: str,
        match_id: int,
        seat: int | None,
        locale: str,
        version: int | None,
        inputs: Callable[[], Any],
        draw: Callable[[Any], Awaitable[Any]],
    ) -> Any:
        """The image of ``kind`` for ``match_id`` (``seat``: a seat's image),
        in ``locale``'s language, at ``version``: the kept one when it was
        drawn at that version or from equal inputs (``inputs()``, asked only
        when the version differs), else ``draw(inputs())``'s (awaited once,
        whoever else asks meanwhile)."""
        key: Key = (kind, match_id, -1 if seat is None else seat, i18n.pick(locale))
        entry = self._entries.get(key)
        same_version = entry is not None and version is not None and entry.version == version
        given = None if same_version else inputs()
        if entry is not None and (same_version or entry.inputs == given):
            self._entries.move_to_end(key)
            if version is not None and entry.version != version:
                entry.version = version
            self.hits += 1
            return await asyncio.shield(entry.image)
        self.draws += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._drop(key)
        entry = self._entries[key] = _Entry(version, given, future)
        try:
            image = await draw(given)
        except BaseException as err:
            if self._entries.get(key) is entry:
                del self._entries[key]
            if isinstance(err, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(err)
                future.exception()  # retrieved: nobody else may be waiting
            raise
        future.set_result(image)
        if self._entries.get(key) is entry:
            entry.size = len(image) if isinstance(image, bytes | bytearray) else 0
            self.size += entry.size
            self._trim()
        return image

    def forget(self, match_id: int) -> None:
        """Drop every image of a match (it ended, or left memory)."""
        for key in [k for k in self._entries if k[1] == match_id]:
            self._drop(key)

    def __len__(self) -> int:
        return len(self._entries)

    def _drop(self, key: Key) -> None:
        entry = self._entries.pop(key, None)
        if entry is not None:
            self.size -= entry.size

    def _trim(self) -> None:
        while self.size > self.budget and len(self._entries) > 1:
            self._drop(next(iter(self._entries)))
