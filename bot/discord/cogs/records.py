"""What outlives a match: ``/leaderboard`` (an image, paged by buttons),
``/stats`` (record per game and a rating chart), ``/history`` and ``/replay``
(the record as a JSON file and a step-through viewer of spectator boards)."""

from __future__ import annotations

import io
import json

import discord
from discord import app_commands
from discord.ext import commands

from engine import GAMES
from engine.match import UNDO

from ...i18n import game_name, game_text, history_line, t
from ...service import HostService, LiveMatch
from ...undo import UndoDesk
from ..announce import Announcer
from ..components import RECORDS, LeaderboardPage, RecordsHandlers, ReplayStep
from ..replies import defer_public
from ..text import EMBED_COLOUR, clip
from ..translation import GAME_CHOICES, desc, locale_of, name

PER_PAGE = 10


def _game_name(game_id: str, locale: str) -> str:
    game = GAMES.get(game_id)
    return game_name(locale, game.info.id) if game else game_id


class RecordsCog(commands.Cog, name=RECORDS):
    def __init__(self, bot: Announcer) -> None:
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

    @app_commands.command(name=name("leaderboard"), description=desc("cmd-leaderboard"))
    @app_commands.describe(game=desc("opt-game"), scope=desc("opt-scope"))
    @app_commands.rename(game=name("game"), scope=name("scope"))
    @app_commands.choices(
        game=GAME_CHOICES,
        scope=[
            app_commands.Choice(name=desc("scope-server"), value="server"),
            app_commands.Choice(name=desc("scope-global"), value="global"),
        ],
    )
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, scope: str = "server"
    ) -> None:
        await interaction.response.defer(thinking=True)
        await self.bot.note_interaction(interaction)
        embed, file, view = await self.leaderboard_message(
            game,
            scope,
            interaction.guild_id,
            1,
            await self.public_locale(interaction),
            interaction.user.id,
        )
        await interaction.followup.send(embed=embed, file=file, view=view)

    async def leaderboard_page(
        self, interaction: discord.Interaction, game_id: str, scope: str, page: int
    ) -> None:
        """A page button: the same message, another page."""
        await interaction.response.defer()
        embed, file, view = await self.leaderboard_message(
            game_id,
            scope,
            interaction.guild_id,
            page,
            await self.public_locale(interaction),
            interaction.user.id,
        )
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

    # ---- stats ---------------------------------------------------------------------------
    def stats_lines(
        self,
        locale: str,
        record: list[tuple[str, int, int, float]],
        rated: dict[str, dict[str, tuple[int, int, bool]]],
    ) -> list[str]:
        """Per game: played, won, average place, then its ratings."""
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
        return lines

    @app_commands.command(name=name("stats"), description=desc("cmd-stats"))
    @app_commands.describe(user=desc("opt-user"))
    @app_commands.rename(user=name("user"))
    async def stats(
        self, interaction: discord.Interaction, user: discord.User | None = None
    ) -> None:
        await interaction.response.defer(thinking=True)
        await self.bot.note_interaction(interaction)
        from render import RatingSeries, render_rating_chart

        locale = await self.public_locale(interaction)
        target = user or interaction.user
        who = target.display_name
        record, rated = await self.host.player_stats(target.id, interaction.guild_id)
        embed = discord.Embed(title=t(locale, "stats-title", user=who), colour=EMBED_COLOUR)
        if not record and not rated:
            embed.description = t(locale, "stats-none", user=who)
            await interaction.followup.send(embed=embed)
            return
        embed.description = clip("\n".join(self.stats_lines(locale, record, rated)), 4000)
        scope = "global" if interaction.guild_id is None else f"guild:{interaction.guild_id}"
        series = [
            RatingSeries(
                _game_name(game_id, locale),
                await self.host.rating_points(target.id, game_id, scope),
            )
            for game_id, *_ in record
        ]
        png = await self.bot.render(
            render_rating_chart, t(locale, "stats-chart", user=who), series, locale
        )
        embed.set_image(url="attachment://rating.png")
        await interaction.followup.send(
            embed=embed, file=discord.File(io.BytesIO(png), filename="rating.png")
        )

    async def public_locale(self, interaction: discord.Interaction) -> str:
        """The language of a public answer: the server's ``/settings``
        language when it chose one (public messages follow it), else the
        asker's."""
        if interaction.guild_id is not None:
            chosen = (await self.host.guild_settings(interaction.guild_id)).language
            if chosen:
                return chosen
        return locale_of(interaction)

    # ---- history ---------------------------------------------------------------------------
    @app_commands.command(name=name("history"), description=desc("cmd-history"))
    @app_commands.describe(user=desc("opt-user"), game=desc("opt-game"))
    @app_commands.rename(user=name("user"), game=name("game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def history(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)
        await self.bot.note_interaction(interaction)
        locale = await self.public_locale(interaction)
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
            undos = await UndoDesk.of(self.host).counts([row[0] for row in rows])
            for match_id, game_id, reason, finished_at, seats in rows:
                lines.append(
                    history_line(
                        locale,
                        match_id,
                        _game_name(game_id, locale),
                        finished_at[:10],
                        [
                            (self.host.names.get(uid, who) or who, place, resigned, bot)
                            for uid, who, place, resigned, bot in seats
                        ],
                        reason,
                        undos.get(match_id, 0),
                    )
                )
            embed.description = clip("\n".join(lines), 4000)
        await interaction.followup.send(embed=embed)

    # ---- replay ---------------------------------------------------------------------------
    async def replay_message(
        self, live: LiveMatch, step: int, locale: str
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        from render import render_board

        total = live.version
        step = min(max(step, 0), total)
        match, events = self.host.replay_step(live, step)
        game = live.game
        actions = live.match.actions
        if 0 < step <= len(actions) and actions[step - 1][1] == UNDO:
            who = live.names[actions[step - 1][0]]
            lines = [t(locale, "undo-replay-step", step=step, total=total, player=who)]
        else:
            lines = [t(locale, "replay-step", step=step, total=total)]
        if step == 0:
            lines.append(t(locale, "replay-start"))
        for event in events:
            seen = event.for_seat(None)
            if seen is not None:
                text = game_text(locale, game.describe_event(seen, live.names))
                if text:
                    lines.append(f"· {text}")
        lines.append(t(locale, "replay-hidden"))
        embed = discord.Embed(
            title=t(locale, "replay-title", match=live.id, game=game_name(locale, game.info.id)),
            description=clip("\n".join(lines), 4000),
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

    @app_commands.command(name=name("replay"), description=desc("cmd-replay"))
    @app_commands.describe(match=desc("opt-match"))
    @app_commands.rename(match=name("match"))
    async def replay(
        self,
        interaction: discord.Interaction,
        # Discord refuses what is out of range (its INTEGER options stop at 2^53);
        # the host still checks the id (HostService.get_match)
        match: app_commands.Range[int, 1, 2**53],
    ) -> None:
        await defer_public(interaction)  # a refusal still comes privately
        await self.bot.note_interaction(interaction)
        live, record = await self.host.replay_record(match)
        locale = await self.public_locale(interaction)
        embed, image, view = await self.replay_message(live, live.version, locale)
        data = json.dumps(record, ensure_ascii=False, indent=1).encode()
        notes = [t(locale, "replay-file")]
        notes += [
            t(locale, "undo-accepted", player=live.names[seat])
            for seat, text in live.match.actions
            if text == UNDO
        ]
        if not live.match.is_over:
            notes.append(t(locale, "replay-live"))
        record_file = discord.File(io.BytesIO(data), filename=f"gueridon-match-{live.id}.json")
        await interaction.followup.send(
            content="\n".join(notes), embed=embed, files=[record_file, image], view=view
        )

    async def replay_step(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        """A replay viewer's button: the board at another step."""
        await interaction.response.defer()
        live = await self.host.get_match(match_id)
        embed, file, view = await self.replay_message(
            live, step, await self.public_locale(interaction)
        )
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)


def _handles(cog: RecordsCog) -> RecordsHandlers:
    return cog  # mypy checks that the cog offers what its components call
