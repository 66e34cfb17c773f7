"""Settings: read from the environment and a ``.env`` file, or given as keywords."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .service import ClockConfig
from .shards import ShardSet, parse_ids


class Settings(BaseSettings):
    """``Settings()`` reads each field from the environment (``DISCORD_TOKEN``,
    ``DATABASE_PATH``, ``RENDER_WORKERS``, ``WORKER_PROCESSES``...) or ``.env``;
    ``Settings(discord_token="...", database_path="...")`` works too. An empty
    value (``DEV_GUILD_ID=`` in ``.env.example``) means "not set": the default."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        populate_by_name=True,
    )

    discord_token: SecretStr | None = Field(
        default=None, description="the bot token from the Discord developer portal"
    )
    database_path: str = Field(default="gueridon.db", description="the SQLite database file")
    database_url: str | None = Field(
        default=None,
        description="postgresql://user:password@host/db: PostgreSQL instead of the SQLite file",
    )
    shard_count: int | None = Field(
        default=None, ge=1, description="gateway shards of the whole bot (every process: the same)"
    )
    shard_ids: str | None = Field(
        default=None, description='the shards this process runs: "0", "0,1" or "0-2"; empty: all'
    )
    sync_commands: bool | None = Field(
        default=None,
        description="sync the slash commands at start-up; empty: only the process with shard 0",
    )
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR")
    dev_guild_id: int | None = Field(
        default=None, description="a server id: commands are synced there instantly"
    )
    render_workers: int = Field(default=2, ge=1, le=16, description="workers drawing images")
    bot_workers: int = Field(
        default=2, ge=1, le=16, description="workers where hard bots think (one decision each)"
    )
    worker_processes: bool = Field(
        default=True,
        description="draw and think in worker processes (off the GIL); false: threads (tests)",
    )
    correspondence_hours: float = Field(
        default=24, gt=0, description="correspondence clock: hours per decision"
    )
    fast_seconds: float = Field(default=90, gt=0, description="fast clock: seconds per decision")
    fast_bank_seconds: float = Field(default=300, ge=0, description="fast clock: time bank")
    max_expiries: int = Field(
        default=3, ge=1, description="expired decisions in a row before a bot takes the seat"
    )
    lobby_ttl_hours: float = Field(default=24, gt=0, description="unstarted lobbies expire")
    bot_seconds: float = Field(default=1.0, gt=0, description="thinking time of hard bots")
    tick_seconds: float = Field(default=5.0, gt=0, description="how often the clock is checked")
    provisional_games: int = Field(
        default=5, ge=0, le=100, description="rated games before a rating stops being provisional"
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value and not value.startswith(("postgresql://", "postgres://")):
            raise ValueError("DATABASE_URL must start with postgresql:// (SQLite: DATABASE_PATH)")
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value:
            parse_ids(value)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the same in every process)")
        self.shards  # noqa: B018 - raises when an id is outside 0..SHARD_COUNT-1
        return self

    @property
    def shards(self) -> ShardSet:
        """The shards this process owns (all of them by default)."""
        ids = parse_ids(self.shard_ids) if self.shard_ids else None
        return ShardSet.of(self.shard_count, ids)

    @property
    def database(self) -> str:
        """Where the store lives: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def syncs_commands(self) -> bool:
        if self.sync_commands is not None:
            return self.sync_commands
        return self.shards.has_direct_messages

    def clock_config(self) -> ClockConfig:
        return ClockConfig(
            correspondence_seconds=self.correspondence_hours * 3600,
            fast_seconds=self.fast_seconds,
            fast_bank=self.fast_bank_seconds,
            max_expiries=self.max_expiries,
            lobby_ttl=self.lobby_ttl_hours * 3600,
            bot_seconds=self.bot_seconds,
        )

    @property
    def token(self) -> str | None:
        if self.discord_token is None:
            return None
        value = self.discord_token.get_secret_value().strip()
        return value or None
