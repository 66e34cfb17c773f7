"""``python -m bot`` runs the Discord bot; ``python -m bot console`` the terminal host."""

from __future__ import annotations

import sys

NO_TOKEN_HELP = """\
gueridon needs a Discord bot token to run.

1. Open https://discord.com/developers/applications and click "New Application".
2. In "Bot", click "Reset Token" and copy the token.
3. Put it in a file named .env next to run.py (see .env.example):
       DISCORD_TOKEN=your-token-here
   or set the DISCORD_TOKEN environment variable.
4. Invite the bot: in "OAuth2 > URL Generator" tick the scopes "bot" and
   "applications.commands", and the permissions View Channels, Send Messages,
   Embed Links, Attach Files and Read Message History; open the URL it gives.
   No privileged intent is needed.

No token? Play in the terminal instead:  python3 run.py console
"""


def main(argv: list[str]) -> int:
    if argv and argv[0] == "console":
        from .console import main as console_main

        return console_main(argv[1:])
    from .settings import Settings

    settings = Settings()
    if settings.token is None:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    from .discord import run_bot

    return run_bot(settings)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
