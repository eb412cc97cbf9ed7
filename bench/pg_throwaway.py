"""A PostgreSQL server of the bench's own: initdb'd in a temporary directory, started with
pg_ctl on a free port, and made to fail on purpose — restarted, or stalled (every server
process stopped with SIGSTOP, then let go on with SIGCONT). Never the machine's service.

As root, the server runs as the ``postgres`` (or ``nobody``) user, as PostgreSQL insists.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Any


def postgres_bindir() -> Path | None:
    """Where ``initdb`` and ``pg_ctl`` are (on PATH or in /usr/lib/postgresql/*/bin)."""
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    # (newest version first: "15" after "9.6" by length, then by name)
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: (len(p), p))
    for candidate in reversed(candidates):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def unprivileged_user() -> tuple[int, int] | None:
    """The user PostgreSQL runs as when we are root (it refuses root), else None."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return entry.pw_uid, entry.pw_gid
    raise RuntimeError("running as root and no 'postgres' or 'nobody' user to run PostgreSQL")


class ThrowawayPostgres:
    """``start()`` gives its URL; ``restart()``, ``stall()``/``resume()``; ``stop()``
    removes it all."""

    def __init__(self) -> None:
        bindir = postgres_bindir()
        if bindir is None:
            raise RuntimeError("PostgreSQL's initdb and pg_ctl are not installed")
        self.bindir = bindir
        self.user = unprivileged_user()
        self.directory = Path(tempfile.mkdtemp(prefix="teahouse-faults-pg-"))
        if self.user is not None:
            os.chown(self.directory, *self.user)
        self.port = free_port()
        self.stalled: list[int] = []

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _call(self, *argv: str) -> None:
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            kwargs = {"user": self.user[0], "group": self.user[1], "extra_groups": []}
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, cwd=self.directory, **kwargs
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip() or done.stdout}")

    def _pg_ctl(self, action: str, *extra: str) -> None:
        self._call(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.directory / "server.log"),
            "-w",
            *extra,
            action,
        )

    def start(self) -> str:
        self._call(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -F"
        self._pg_ctl("start", "-o", options)
        return self.url

    def restart(self) -> None:
        """Stop the server (its connections cut) and start it again."""
        self._pg_ctl("restart", "-m", "fast")

    def _server_pids(self) -> list[int]:
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        pids = [postmaster]
        for stat in glob.glob("/proc/[0-9]*/stat"):
            try:
                fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:  # (ppid)
                pids.append(int(Path(stat).parent.name))
        return pids

    def stall(self) -> None:
        """Every server process stops (SIGSTOP): statements and connections hang."""
        self.stalled = self._server_pids()
        for pid in self.stalled:
            os.kill(pid, signal.SIGSTOP)

    def resume(self) -> None:
        for pid in self.stalled:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.stalled = []

    def stop(self) -> None:
        try:
            self.resume()
            self._pg_ctl("stop", "-m", "immediate")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
