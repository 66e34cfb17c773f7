"""A throw-away PostgreSQL server for the tests.

Started once per test session (per xdist worker) from the machine's binaries
(``initdb`` and ``pg_ctl`` in ``PATH``, else the newest
``/usr/lib/postgresql/*/bin``), in a temporary directory, listening on
127.0.0.1 and a free port only (no Unix socket), with durability off (a test
server: ``fsync=off``). As root, PostgreSQL refuses to run: the server runs as
the ``postgres`` user (``runuser -u postgres --``), its directory owned by it.
Each test gets a database of its own: an empty one (:meth:`Server.empty`) or a
copy of one migrated by the store (:meth:`Server.migrated`, a template copied
by ``CREATE DATABASE ... TEMPLATE``: fast).

:func:`start` raises :class:`Unavailable` with the reason when this machine
cannot run one; the fixtures in ``tests/conftest.py`` skip then (fail with
``--full``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SERVER_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "unix_socket_directories": "",
    "listen_addresses": "127.0.0.1",
}


class Unavailable(Exception):
    """No PostgreSQL server can run here (the reason in the message)."""


def binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A running PostgreSQL server (superuser ``postgres``, trust auth on 127.0.0.1)."""

    def __init__(self, bin_dir: Path, root: Path, port: int, runas: list[str]) -> None:
        self.bin_dir = bin_dir
        self.root = root
        self.data = root / "data"
        self.port = port
        self.runas = runas
        self._names = itertools.count(1)
        self._template: str | None = None

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self.runas, *args], capture_output=True, text=True, timeout=60, check=False
        )
        if done.returncode != 0:
            raise Unavailable(
                f"{Path(args[0]).name} failed ({done.returncode}): "
                + (done.stderr or done.stdout).strip()[-800:]
            )

    def start(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-locale",
            "--no-sync",
        )
        # pg_ctl hands the options to a shell: '' is an empty value (no Unix socket)
        options = f"-p {self.port} " + " ".join(
            f"-c {key}={value or repr('')}" for key, value in SERVER_SETTINGS.items()
        )
        self._run(
            str(self.bin_dir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "30",
            "start",
        )

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def empty(self) -> str:
        """The URL of a new empty database."""
        name = f"t{os.getpid()}_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)

    def migrated(self) -> str:
        """The URL of a new database holding the store's schema (no rows)."""
        if self._template is None:
            from bot.store import Store

            name = f"migrated_{os.getpid()}"
            self._admin(f"CREATE DATABASE {name} TEMPLATE template0")

            async def migrate() -> None:
                store = await Store.open(self.url(name))
                await store.close()

            # on a thread of its own: callers may be inside a running event loop
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                pool.submit(asyncio.run, migrate()).result()
            self._template = name
        name = f"t{os.getpid()}_{next(self._names)}"
        self._admin(f"CREATE DATABASE {name} TEMPLATE {self._template}")
        return self.url(name)


def start() -> Server:
    """Start a server, or raise :class:`Unavailable` saying why not."""
    bin_dir = binaries()
    if bin_dir is None:
        raise Unavailable(
            "no PostgreSQL binaries (initdb, pg_ctl) in PATH nor in /usr/lib/postgresql/*/bin;"
            " install Debian's postgresql package to run the PostgreSQL tests"
        )
    runas: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="gueridon-pg-"))
    if os.geteuid() == 0:
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable(
                "running as root, and PostgreSQL refuses to run as root: no 'postgres' user"
            ) from None
        runner = shutil.which("runuser")
        if runner is None:
            shutil.rmtree(root, ignore_errors=True)
            raise Unavailable("running as root without runuser to start PostgreSQL as 'postgres'")
        os.chown(root, user.pw_uid, user.pw_gid)
        runas = [runner, "-u", "postgres", "--"]
    server = Server(bin_dir, root, _free_port(), runas)
    try:
        server.start()
    except BaseException:
        log = root / "server.log"
        detail = log.read_text(errors="replace")[-800:] if log.exists() else ""
        server.stop()
        if detail:
            raise Unavailable(f"PostgreSQL did not start: {detail}") from None
        raise
    return server
