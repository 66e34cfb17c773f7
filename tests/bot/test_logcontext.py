"""Log lines carry the shard, server and match they are about."""

from __future__ import annotations

import asyncio
import io
import logging

from bot import logcontext


def _logger() -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    logcontext.install(handler)
    logger = logging.getLogger("tests.logcontext")
    logger.handlers[:] = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, out


def test_bound_ids_are_written_and_unbound_after() -> None:
    logger, out = _logger()
    with logcontext.bind(shard=1, guild=81384788765712384):
        with logcontext.bind(match=42):
            logger.info("moved")
        logger.info("lobby")
    logger.info("bare")
    lines = out.getvalue().splitlines()
    assert lines[0].endswith("[shard 1 guild 81384788765712384 match 42] moved")
    assert lines[1].endswith("[shard 1 guild 81384788765712384] lobby")
    assert lines[2].endswith("tests.logcontext bare")


def test_tasks_keep_their_own_ids() -> None:
    logger, out = _logger()

    async def one(match: int) -> None:
        logcontext.set_ids(match=match)
        await asyncio.sleep(0)
        logger.info("tick")

    async def both() -> None:
        await asyncio.gather(one(1), one(2))

    asyncio.run(both())
    assert sorted(line.split("[")[1] for line in out.getvalue().splitlines()) == [
        "match 1] tick",
        "match 2] tick",
    ]
