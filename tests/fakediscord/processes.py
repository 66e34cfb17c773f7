"""Real bot processes against one fake Discord running in the test's process.

Each process is ``python -m tests.launch_bot`` (see :mod:`tests.launch_bot`) with its own
environment: the fake's addresses, the bot token, the database (``DATABASE_PATH`` or
``DATABASE_URL``), ``SHARD_COUNT`` / ``SHARD_IDS``, ``WORKER_PROCESSES=false`` and a short
``TICK_SECONDS``, plus whatever the test adds. ::

    async with BotProcesses(fake, tmp_path, database=url, shard_count=2) as procs:
        procs.add(shard_ids="0")
        procs.add(shard_ids="1")
        await procs.start_all()          # started together, then each waited for
        ...
        await procs.kill(1)              # SIGKILL: a crash (its gateway session is not closed)
        await procs.restart(1)           # a new process, same environment; waits until ready

``wait_ready(i)`` waits until the process said it is ready (discord.py's ``on_ready``: every
shard it runs got READY and its guilds) and the fake holds a live session for each of its
shards. Every process's stdout and stderr go to files (one pair per start) that
:meth:`BotProcesses.report` gathers for a failing test; an ERROR log line or a traceback in any
stderr fails the test at exit, as ``fake.bot_errors`` does for a bot in the test's process
(:meth:`BotProcesses.take_errors` consumes expected ones by pattern). No process outlives the
block (nor the test process: an ``atexit`` hook kills what is left, and on Linux each process
asks the kernel for SIGKILL when the test process dies).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import ctypes.util
import os
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from bot.settings import Settings
from tests.launch_bot import READY

from .server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
#: a log line of level ERROR or CRITICAL (bot.logcontext.FORMAT), or a traceback
PROBLEM = re.compile(r"^\S+ \S+ (ERROR|CRITICAL) |^Traceback \(most recent call last\)")

_LIVE: set[int] = set()  # pids of processes still running, killed at the interpreter's exit

try:  # Linux: a bot process gets SIGKILL when the test process dies, however it dies
    _PRCTL = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
except (OSError, AttributeError):
    _PRCTL = None
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Runs in the child between fork and exec: only the C call, loaded beforehand (no
    import, no lock another thread of the test process may hold)."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)


@atexit.register
def _kill_leftovers() -> None:
    for pid in list(_LIVE):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    _LIVE.clear()


@dataclass(eq=False)
class BotProcess:
    index: int
    env: dict[str, str]
    shard_ids: list[int]
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0
    logs: list[tuple[Path, Path]] = field(default_factory=list)  # (stdout, stderr) per start
    taken: list[str] = field(default_factory=list)  # error lines consumed by take_errors

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def stdout(self) -> str:
        """This start's stdout."""
        return self.logs[-1][0].read_text(errors="replace") if self.logs else ""

    def stderr(self, every: bool = True) -> str:
        """stderr of every start (``every=False``: of the latest)."""
        paths = [err for _, err in (self.logs if every else self.logs[-1:])]
        parts = []
        for n, path in enumerate(paths, 1):
            parts.append(f"--- bot process {self.index}, start {n} ---\n")
            parts.append(path.read_text(errors="replace"))
        return "".join(parts)

    def problem_lines(self) -> list[str]:
        lines = []
        for _, err in self.logs:
            for line in err.read_text(errors="replace").splitlines():
                if PROBLEM.search(line):
                    lines.append(line)
        left = list(lines)
        for line in self.taken:
            with contextlib.suppress(ValueError):
                left.remove(line)
        return left


class BotProcesses:
    """Bot processes sharing a database and a fake Discord (see the module's docstring)."""

    def __init__(
        self,
        fake: FakeDiscord,
        directory: Path,
        *,
        database: str | Path,
        shard_count: int | None = None,
        env: dict[str, str] | None = None,
        ready_timeout: float = 60.0,
    ) -> None:
        self.fake = fake
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.database = str(database)
        self.shard_count = shard_count
        self.env = dict(env or {})
        self.ready_timeout = ready_timeout
        self.processes: list[BotProcess] = []

    # ---- set-up ------------------------------------------------------------------------------
    def base_env(self) -> dict[str, str]:
        """The test process's environment without any bot setting (the test's only)."""
        names = {name.upper() for name in Settings.model_fields}
        env = {k: v for k, v in os.environ.items() if k.upper() not in names}
        env.update(
            FAKEDISCORD_API=self.fake.api_url,
            FAKEDISCORD_GATEWAY=self.fake.gateway_url,
            DISCORD_TOKEN=self.fake.token,
            WORKER_PROCESSES="false",
            TICK_SECONDS="0.5",
            LOG_LEVEL="INFO",
            PYTHONUNBUFFERED="1",
        )
        if self.database.startswith(("postgresql://", "postgres://")):
            env["DATABASE_URL"] = self.database
        else:
            env["DATABASE_PATH"] = self.database
        if self.shard_count is not None:
            env["SHARD_COUNT"] = str(self.shard_count)
        env.update(self.env)
        return env

    def add(self, shard_ids: str | None = None, **env: str) -> int:
        """A process running ``shard_ids`` (``"0"``, ``"0-1"``; None: every shard), not
        started yet; returns its index."""
        proc_env = self.base_env()
        if shard_ids is not None:
            proc_env["SHARD_IDS"] = shard_ids
        proc_env.update(env)
        ids: list[int] = []
        if shard_ids is not None:
            from bot.shards import parse_ids

            ids = sorted(parse_ids(shard_ids))
        elif self.shard_count is not None:
            ids = list(range(self.shard_count))
        self.processes.append(BotProcess(len(self.processes), proc_env, ids))
        return len(self.processes) - 1

    # ---- life cycle ----------------------------------------------------------------------------
    async def start(self, i: int, *, wait: bool = True) -> None:
        bp = self.processes[i]
        if bp.running:
            raise RuntimeError(f"bot process {i} is running already")
        bp.starts += 1
        out = self.directory / f"bot{i}-{bp.starts}.out"
        err = self.directory / f"bot{i}-{bp.starts}.err"
        bp.logs.append((out, err))
        with out.open("wb") as stdout, err.open("wb") as stderr:
            bp.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.launch_bot",
                cwd=ROOT,
                env=bp.env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=stdout,
                stderr=stderr,
                preexec_fn=_die_with_parent,
            )
        _LIVE.add(bp.proc.pid)
        if wait:
            await self.wait_ready(i)

    async def start_all(self) -> None:
        """Start every process not running, together, then wait for each."""
        idle = [i for i, bp in enumerate(self.processes) if not bp.running]
        for i in idle:
            await self.start(i, wait=False)
        for i in idle:
            await self.wait_ready(i)

    def is_ready(self, i: int) -> bool:
        """Process ``i`` printed its READY line (this start), and the fake holds a live
        session of each of its shards."""
        bp = self.processes[i]
        if not bp.running or not any(line.startswith(READY) for line in bp.stdout().splitlines()):
            return False
        if self.shard_count is None:
            return True  # discord.py took Discord's advice: every shard, one process
        live = self.fake.ready_shards()
        return all((k, self.shard_count) in live for k in bp.shard_ids)

    async def wait_ready(self, i: int, timeout: float | None = None) -> None:
        """Until process ``i`` is ready and the fake sees a live session of each of its shards."""
        bp = self.processes[i]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.ready_timeout)
        while not self.is_ready(i):
            if not bp.running:
                raise AssertionError(
                    f"bot process {i} exited ({self._returncode(bp)}) before it was ready:\n"
                    + self.tail(bp)
                )
            if loop.time() > deadline:
                raise AssertionError(f"bot process {i} was not ready in time:\n" + self.tail(bp))
            with contextlib.suppress(TimeoutError):
                await self.fake.wait_for(lambda: self.is_ready(i), timeout=0.2)

    async def kill(self, i: int) -> None:
        """SIGKILL: the process dies at once, its gateway sessions are not closed (Discord
        keeps them resumable for a while; nobody resumes them)."""
        bp = self.processes[i]
        if bp.proc is None or bp.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            bp.proc.kill()
        await bp.proc.wait()
        _LIVE.discard(bp.proc.pid)

    async def stop(self, i: int, timeout: float = 15.0) -> None:
        """SIGTERM (the bot closes cleanly), SIGKILL after ``timeout``."""
        bp = self.processes[i]
        if bp.proc is None or bp.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            bp.proc.terminate()
        try:
            await asyncio.wait_for(bp.proc.wait(), timeout)
        except TimeoutError:
            await self.kill(i)
        _LIVE.discard(bp.proc.pid)

    async def restart(self, i: int, *, wait: bool = True) -> None:
        """Kill process ``i`` if it runs, then start it again with the same environment."""
        await self.kill(i)
        await self.start(i, wait=wait)

    async def stop_all(self) -> None:
        await asyncio.gather(*(self.stop(i) for i in range(len(self.processes))))

    # ---- reading what happened -----------------------------------------------------------------
    @staticmethod
    def _returncode(bp: BotProcess) -> str:
        code = None if bp.proc is None else bp.proc.returncode
        return f"exit code {code}"

    def tail(self, bp: BotProcess, lines: int = 80) -> str:
        text = bp.stderr(every=False).splitlines()
        return "\n".join(text[-lines:])

    def report(self, lines: int = 80) -> str:
        """The end of every process's stderr (every start), for a failure report."""
        parts = []
        for bp in self.processes:
            text = bp.stderr().splitlines()
            parts.append("\n".join(text[-lines:]))
        return "\n".join(parts)

    def problems(self) -> list[str]:
        return [
            f"bot process {bp.index}: {line}"
            for bp in self.processes
            for line in bp.problem_lines()
        ]

    def take_errors(self, pattern: str, *, count: int = 1) -> list[str]:
        """Consume exactly ``count`` ERROR/traceback lines matching ``pattern`` (expected ones)."""
        found = []
        for bp in self.processes:
            for line in bp.problem_lines():
                if re.search(pattern, line):
                    bp.taken.append(line)
                    found.append(line)
        if len(found) != count:
            raise AssertionError(f"{len(found)} error lines match {pattern!r}, not {count}")
        return found

    # ---- context manager ---------------------------------------------------------------------
    async def __aenter__(self) -> BotProcesses:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            await self.stop_all()
        finally:
            for bp in self.processes:
                if bp.running:
                    assert bp.proc is not None
                    with contextlib.suppress(ProcessLookupError):
                        bp.proc.kill()
                    await bp.proc.wait()
                if bp.proc is not None:
                    _LIVE.discard(bp.proc.pid)
        if exc is not None:
            print("bot processes' stderr:\n" + self.report(), file=sys.stderr)
            return
        problems = self.problems()
        if problems:
            raise AssertionError(
                "bot processes logged errors:\n  " + "\n  ".join(problems) + "\n\n" + self.report()
            )

    def __getitem__(self, i: int) -> BotProcess:
        return self.processes[i]

    def __len__(self) -> int:
        return len(self.processes)

    def __repr__(self) -> str:
        states: list[Any] = [("running" if bp.running else "stopped") for bp in self.processes]
        return f"<BotProcesses {states}>"
