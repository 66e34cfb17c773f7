"""Settings: read from the environment and a ``.env`` file, or given as keywords."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """``Settings()`` reads ``DISCORD_TOKEN``, ``DATABASE_PATH``, ``LOG_LEVEL``,
    ``DEV_GUILD_ID`` and ``RENDER_WORKERS`` from the environment or ``.env``;
    ``Settings(discord_token="...", database_path="...")`` works too."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", populate_by_name=True
    )

    discord_token: SecretStr | None = Field(
        default=None, description="the bot token from the Discord developer portal"
    )
    database_path: str = Field(default="gueridon.db", description="the SQLite database file")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR")
    dev_guild_id: int | None = Field(
        default=None, description="a server id: commands are synced there instantly"
    )
    render_workers: int = Field(default=2, ge=1, le=16, description="threads drawing images")
    provisional_games: int = Field(
        default=5, ge=0, le=100, description="rated games before a rating stops being provisional"
    )

    @property
    def token(self) -> str | None:
        if self.discord_token is None:
            return None
        value = self.discord_token.get_secret_value().strip()
        return value or None
