"""One real bot process against a fake Discord that a test runs:
``python -m tests.launch_bot`` (started by :mod:`tests.fakediscord.processes`).

The fake's addresses come from the environment, ``FAKEDISCORD_API`` (``http://127.0.0.1:<port>
/api/v10``) and ``FAKEDISCORD_GATEWAY`` (``ws://127.0.0.1:<port>/gateway``); they are patched
into discord.py exactly as :meth:`FakeDiscord.patched` does (``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``). Everything else is the bot's own
settings, read from the environment as in production (``DISCORD_TOKEN``, ``DATABASE_PATH`` or
``DATABASE_URL``, ``SHARD_COUNT``, ``SHARD_IDS``, ``WORKER_PROCESSES``, ``TICK_SECONDS``...;
never a ``.env`` file). The bot logs to stderr as ``run_bot`` does; when it is ready (every
shard it runs received READY and its guilds) it prints ``READY <shard ids>`` on stdout. SIGTERM
closes it cleanly (its gateway sessions end with 1000); SIGKILL is a crash.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import traceback

import discord
import discord.gateway
import discord.http
import yarl

READY = "READY"


def patch_discord(api_url: str, gateway_url: str) -> None:
    """What ``FakeDiscord.patched()`` sets, for the rest of this process."""
    discord.http.Route.BASE = api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def run() -> int:
    from bot.discord.client import create_bot, setup_logging
    from bot.settings import Settings

    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    setup_logging(settings)
    timeout = float(os.environ.get("FAKEDISCORD_GUILD_READY_TIMEOUT", "0.05"))
    bot = create_bot(settings, guild_ready_timeout=timeout)

    async def on_ready() -> None:
        shards = sorted(bot.shards)
        print(f"{READY} {' '.join(map(str, shards))} of {bot.shard_count}", flush=True)

    bot.add_listener(on_ready, "on_ready")
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    loop.add_signal_handler(signal.SIGTERM, lambda: closing.append(loop.create_task(bot.close())))
    token = settings.token
    if token is None:
        print("DISCORD_TOKEN is not set", file=sys.stderr)
        return 2
    try:
        await bot.start(token)
    finally:
        if not bot.is_closed():
            await bot.close()
        for task in closing:
            await task
    return 0


def main() -> None:
    patch_discord(os.environ["FAKEDISCORD_API"], os.environ["FAKEDISCORD_GATEWAY"])
    try:
        code = asyncio.run(run())
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    # exit now: a thread left behind by a failed start (an unclosed database connection)
    # must not keep a dead bot's process alive
    os._exit(code)


if __name__ == "__main__":
    main()
