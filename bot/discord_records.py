"""Discord commands for what outlives a match: leaderboards, statistics,
history, replays and rematches. Same rules as :mod:`bot.discord_app`: defer
first, call the service, render off the loop, answer in the user's language."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES

from .discord_app import (
    EMBED_COLOUR,
    GAME_CHOICES,
    GueridonBot,
    _clip,
    _desc,
    _locale,
    _name,
    defer_public,
    guarded,
    reply,
)
from .i18n import history_line, lang, t
from .service import HostService, LiveMatch, UserRef

PER_PAGE = 10


def _records(interaction: discord.Interaction) -> RecordsCog:
    bot = interaction.client
    assert isinstance(bot, GueridonBot)
    cog = bot.get_cog("RecordsCog")
    assert isinstance(cog, RecordsCog)
    return cog


def _game_name(game_id: str, locale: str) -> str:
    game = GAMES.get(game_id)
    return game.info.name(locale) if game else game_id


class RecordsCog(commands.Cog):
    def __init__(self, bot: GueridonBot) -> None:
        self.bot = bot

    @property
    def host(self) -> HostService:
        return self.bot.host

    # ---- leaderboard -----------------------------------------------------------------
    async def leaderboard_message(
        self,
        game_id: str,
        scope_kind: str,
        guild_id: int | None,
        page: int,
        locale: str,
        viewer: int | None = None,
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        from render import LeaderboardRow, render_leaderboard

        scope = "global" if scope_kind == "global" or guild_id is None else f"guild:{guild_id}"
        rows, page, pages = await self.host.leaderboard(game_id, scope, page, PER_PAGE)
        scope_label = t(locale, "scope-global" if scope == "global" else "scope-server")
        title = t(locale, "leaderboard-title", game=_game_name(game_id, locale))
        subtitle = t(
            locale, "leaderboard-subtitle", scope=scope_label, n=self.host.provisional_games
        )
        png = await self.bot.render(
            render_leaderboard,
            title,
            subtitle,
            [LeaderboardRow(r[0], r[2], r[3], r[4], r[5], r[6]) for r in rows],
            page,
            pages,
            locale,
            next((r[0] for r in rows if r[1] == viewer), None),
        )
        embed = discord.Embed(title=title, description=subtitle, colour=EMBED_COLOUR)
        embed.set_image(url="attachment://leaderboard.png")
        view = discord.ui.View(timeout=None)
        kind = "g" if scope == "global" else "s"
        view.add_item(
            LeaderboardPage(game_id, kind, page - 1, t(locale, "button-page-prev"), page <= 1)
        )
        view.add_item(
            LeaderboardPage(game_id, kind, page + 1, t(locale, "button-page-next"), page >= pages)
        )
        return embed, discord.File(io.BytesIO(png), filename="leaderboard.png"), view

    @app_commands.command(name=_name("leaderboard"), description=_desc("cmd-leaderboard"))
    @app_commands.describe(game=_desc("opt-game"), scope=_desc("opt-scope"))
    @app_commands.rename(game=_name("game"), scope=_name("scope"))
    @app_commands.choices(
        game=GAME_CHOICES,
        scope=[
            app_commands.Choice(name=_desc("scope-server"), value="server"),
            app_commands.Choice(name=_desc("scope-global"), value="global"),
        ],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: str = "server"
    ) -> None:
        async def body() -> None:
            await interaction.response.defer(thinking=True)
            await self.bot.note_interaction(interaction)
            embed, file, view = await self.leaderboard_message(
                game, scope, interaction.guild_id, 1, _locale(interaction), interaction.user.id
            )
            await interaction.followup.send(embed=embed, file=file, view=view)

        await guarded(interaction, body)

    # ---- stats ---------------------------------------------------------------------------
    @app_commands.command(name=_name("stats"), description=_desc("cmd-stats"))
    @app_commands.describe(user=_desc("opt-user"))
    @app_commands.rename(user=_name("user"))
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        async def body() -> None:
            await interaction.response.defer(thinking=True)
            await self.bot.note_interaction(interaction)
            from render import RatingSeries, render_rating_chart

            locale = _locale(interaction)
            target = user or interaction.user
            name = target.display_name
            record, rated = await self.host.player_stats(target.id, interaction.guild_id)
            embed = discord.Embed(title=t(locale, "stats-title", user=name), colour=EMBED_COLOUR)
            if not record and not rated:
                embed.description = t(locale, "stats-none", user=name)
                await interaction.followup.send(embed=embed)
                return
            lines = []
            for game_id, played, won, avg in record:
                lines.append(
                    t(
                        locale,
                        "stats-line",
                        game=_game_name(game_id, locale),
                        played=played,
                        won=won,
                        avg=avg,
                    )
                )
                for key, (rating, games, provisional) in sorted(rated.get(game_id, {}).items()):
                    if key.endswith(":bots"):
                        if key.startswith("global"):
                            lines.append("  " + t(locale, "stats-bots", rating=rating, games=games))
                        continue
                    scope_label = t(locale, "scope-global" if key == "global" else "scope-server")
                    mark = t(locale, "provisional-mark") if provisional else ""
                    lines.append(
                        "  "
                        + t(
                            locale,
                            "stats-rating",
                            scope=scope_label,
                            rating=rating,
                            mark=mark,
                            games=games,
                        )
                    )
            embed.description = _clip("\n".join(lines), 4000)
            scope = "global" if interaction.guild_id is None else f"guild:{interaction.guild_id}"
            series = [
                RatingSeries(
                    _game_name(game_id, locale),
                    await self.host.rating_points(target.id, game_id, scope),
                )
                for game_id, *_ in record
            ]
            png = await self.bot.render(
                render_rating_chart, t(locale, "stats-chart", user=name), series, locale
            )
            embed.set_image(url="attachment://rating.png")
            await interaction.followup.send(
                embed=embed, file=discord.File(io.BytesIO(png), filename="rating.png")
            )

        await guarded(interaction, body)

    # ---- history ---------------------------------------------------------------------------
    @app_commands.command(name=_name("history"), description=_desc("cmd-history"))
    @app_commands.describe(user=_desc("opt-user"), game=_desc("opt-game"))
    @app_commands.rename(user=_name("user"), game=_name("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        async def body() -> None:
            await interaction.response.defer(thinking=True)
            await self.bot.note_interaction(interaction)
            locale = _locale(interaction)
            rows = await self.host.history(
                user_id=user.id if user else None,
                game_id=game,
                guild_id=interaction.guild_id,
            )
            embed = discord.Embed(title=t(locale, "history-title"), colour=EMBED_COLOUR)
            if not rows:
                embed.description = t(locale, "history-none")
            else:
                lines = []
                for match_id, game_id, reason, finished_at, seats in rows:
                    lines.append(
                        history_line(
                            locale,
                            match_id,
                            _game_name(game_id, locale),
                            finished_at[:10],
                            [
                                (self.host.names.get(uid, name) or name, place, resigned, bot)
                                for uid, name, place, resigned, bot in seats
                            ],
                            reason,
                        )
                    )
                embed.description = _clip("\n".join(lines), 4000)
            await interaction.followup.send(embed=embed)

        await guarded(interaction, body)

    # ---- replay ---------------------------------------------------------------------------
    async def replay_message(
        self, live: LiveMatch, step: int, locale: str
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        from render import render_board

        total = live.version
        step = min(max(step, 0), total)
        match, events = self.host.replay_step(live, step)
        game = live.game
        lines = [t(locale, "replay-step", step=step, total=total)]
        if step == 0:
            lines.append(t(locale, "replay-start"))
        for event in events:
            seen = event.for_seat(None)
            if seen is not None:
                text = game.describe_event(seen, live.names, lang(locale))
                if text:
                    lines.append(f"· {text}")
        lines.append(t(locale, "replay-hidden"))
        embed = discord.Embed(
            title=t(locale, "replay-title", match=live.id, game=game.info.name(locale)),
            description=_clip("\n".join(lines), 4000),
            colour=EMBED_COLOUR,
        )
        png = await self.bot.render(
            render_board, live.game_id, match.view(None), live.names, locale
        )
        embed.set_image(url="attachment://replay.png")
        view = discord.ui.View(timeout=None)
        for label, target in (
            ("button-first", 0),
            ("button-prev", step - 1),
            ("button-next", step + 1),
            ("button-last", total),
        ):
            disabled = target < 0 or target > total or target == step
            view.add_item(
                ReplayStep(live.id, max(0, min(target, total)), label, t(locale, label), disabled)
            )
        return embed, discord.File(io.BytesIO(png), filename="replay.png"), view

    @app_commands.command(name=_name("replay"), description=_desc("cmd-replay"))
    @app_commands.describe(match=_desc("opt-match"))
    @app_commands.rename(match=_name("match"))
    async def replay(
        self,
        interaction: discord.Interaction,
        # Discord refuses what is out of range (its INTEGER options stop at 2^53);
        # the host still checks the id (HostService.get_match)
        match: app_commands.Range[int, 1, 2**53],
    ) -> None:
        async def body() -> None:
            await defer_public(interaction)  # a refusal still comes privately
            await self.bot.note_interaction(interaction)
            live, record = await self.host.replay_record(match)
            locale = _locale(interaction)
            embed, image, view = await self.replay_message(live, live.version, locale)
            data = json.dumps(record, ensure_ascii=False, indent=1).encode()
            notes = [t(locale, "replay-file")]
            if not live.match.is_over:
                notes.append(t(locale, "replay-live"))
            record_file = discord.File(io.BytesIO(data), filename=f"gueridon-match-{live.id}.json")
            await interaction.followup.send(
                content="\n".join(notes), embed=embed, files=[record_file, image], view=view
            )

        await guarded(interaction, body)


# ---------------------------------------------------------------------------
# Persistent components
# ---------------------------------------------------------------------------


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gb:(?P<game>[a-z-]+):(?P<scope>[gs]):(?P<page>\d+)",
):
    def __init__(
        self, game_id: str, scope: str, page: int, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                style=discord.ButtonStyle.secondary,
                custom_id=f"gb:{game_id}:{scope}:{max(page, 0)}",
                disabled=disabled,
            )
        )
        self.game_id, self.scope, self.page = game_id, scope, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        return cls(match["game"], match["scope"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _records(interaction)

        async def body() -> None:
            await interaction.response.defer()
            embed, file, view = await cog.leaderboard_message(
                self.game_id,
                "global" if self.scope == "g" else "server",
                interaction.guild_id,
                self.page,
                _locale(interaction),
                interaction.user.id,
            )
            await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

        await guarded(interaction, body)


class ReplayStep(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gv:(?P<match>\d+):(?P<step>\d+):(?P<slot>[a-z-]+)",
):
    def __init__(
        self, match_id: int, step: int, slot: str, label: str = "", disabled: bool = False
    ) -> None:
        short = slot.removeprefix("button-")
        super().__init__(
            discord.ui.Button(
                label=label or short,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gv:{match_id}:{step}:{short}",
                disabled=disabled,
            )
        )
        self.match_id, self.step = match_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayStep:
        return cls(int(match["match"]), int(match["step"]), match["slot"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _records(interaction)

        async def body() -> None:
            await interaction.response.defer()
            live = await cog.host.get_match(self.match_id)
            embed, file, view = await cog.replay_message(live, self.step, _locale(interaction))
            await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

        await guarded(interaction, body)


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"gr:(?P<match>\d+)"):
    def __init__(self, match_id: int, label: str = "Rematch") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.success,
                custom_id=f"gr:{match_id}",
                emoji="🔁",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, GueridonBot)

        async def body() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            user = await bot.note_interaction(interaction)
            lobby = await bot.host.rematch(self.match_id, UserRef(user.id, user.name, user.locale))
            game_cog = bot.get_cog("GameCog")
            locale = bot.locale_for_channel(lobby.channel_id)
            embed, view = game_cog.lobby_message(lobby, locale)  # type: ignore[union-attr]
            channel = bot.get_partial_messageable(lobby.channel_id)
            message = await channel.send(
                content=t(locale, "rematch-opened"), embed=embed, view=view
            )
            await bot.host.store.set_lobby_message(lobby.id, message.id)
            await reply(interaction, t(_locale(interaction), "rematch-opened"))

        await guarded(interaction, body)


__all__ = ["LeaderboardPage", "RecordsCog", "RematchButton", "ReplayStep"]
