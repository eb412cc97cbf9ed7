"""The store's tests run against both backends: ``store`` and ``new_database`` are
parametrized over SQLite and PostgreSQL.

Where the PostgreSQL server comes from, in order:

1. ``TEAHOUSE_TEST_POSTGRES`` — a ``postgresql://`` URL (a failure to connect is an error);
2. the local server at ``postgresql://postgres@127.0.0.1:5432/postgres``, if it answers;
3. a throwaway server started for the session in a temporary directory on a free port, if
   PostgreSQL's ``initdb`` and ``pg_ctl`` are installed (on PATH or in
   ``/usr/lib/postgresql/<version>/bin``; as root it runs as the ``postgres`` or ``nobody``
   user);
4. otherwise the PostgreSQL tests are skipped, with the reason repeated at the end of the
   run — unless ``TEAHOUSE_REQUIRE_POSTGRES=1`` (CI), which makes that a failure.

The session works in its own database ``teahouse_test_<pid>`` (dropped at the end; if the
server refuses CREATE DATABASE, in the given database), and each test in a fresh schema of
it (dropped after the test).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

from bench.pg_throwaway import free_port, postgres_bindir, unprivileged_user
from bot.store import Store

URL_ENV = "TEAHOUSE_TEST_POSTGRES"
REQUIRE_ENV = "TEAHOUSE_REQUIRE_POSTGRES"
LOCAL_URL = "postgresql://postgres@127.0.0.1:5432/postgres"

#: Why the PostgreSQL tests were skipped, or which server they ran on (terminal summary).
_skip_reason: str | None = None
_server_used: str | None = None


def _run(coro: Awaitable[Any]) -> Any:
    """Run a coroutine to completion from synchronous code, on a private loop in a thread
    (fixtures may be set up while a test's event loop is running)."""

    async def wrapper() -> Any:
        return await coro

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, wrapper()).result()


async def _probe(url: str, timeout: float = 3.0) -> None:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=timeout)
    await conn.close()


def with_database(url: str, database: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + database))


def with_search_path(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = f"{parts.query}&search_path={schema}" if parts.query else f"search_path={schema}"
    return urlunsplit(parts._replace(query=query))


@dataclass
class _Throwaway:
    """A PostgreSQL server of our own in a temporary directory."""

    bindir: Path
    directory: Path
    port: int
    user: tuple[int, int] | None  # (uid, gid) to run as, when we are root
    log: list[str] = field(default_factory=list)

    def _call(self, *argv: str) -> None:
        kwargs: dict[str, Any] = {}
        if self.user is not None:
            kwargs = {"user": self.user[0], "group": self.user[1], "extra_groups": []}
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=120, cwd=self.directory, **kwargs
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} failed: {done.stderr.strip() or done.stdout}")

    def start(self) -> str:
        data = self.directory / "data"
        self._call(
            str(self.bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self._call(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(self.directory / "server.log"),
            "-w",
            "-o",
            f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -F",
            "start",
        )
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._call(
                str(self.bindir / "pg_ctl"), "-D", str(self.directory / "data"), "-m", "fast",
                "-w", "stop",
            )  # fmt: skip
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def _find_server() -> tuple[str | None, str, _Throwaway | None]:
    """(admin URL or None, where it is / why there is none, a throwaway server to stop)."""
    url = os.environ.get(URL_ENV)
    if url:
        try:
            _run(_probe(url))
        except Exception as exc:
            pytest.fail(f"{URL_ENV}={url} does not answer: {exc!r}", pytrace=False)
        return url, f"{URL_ENV}", None
    try:
        _run(_probe(LOCAL_URL))
        return LOCAL_URL, "the local server", None
    except Exception as exc:
        local_failure = f"no server at {LOCAL_URL} ({type(exc).__name__})"
    bindir = postgres_bindir()
    if bindir is None:
        return (
            None,
            f"{local_failure}, {URL_ENV} is not set, and initdb/pg_ctl are not installed",
            None,
        )
    try:
        user = unprivileged_user()
        directory = Path(tempfile.mkdtemp(prefix="teahouse-pg-"))
        if user is not None:
            os.chown(directory, *user)
        server = _Throwaway(bindir, directory, free_port(), user)
        url = server.start()
        _run(_probe(url, timeout=10))
    except Exception as exc:
        return None, f"{local_failure}, and a throwaway server from {bindir} failed: {exc}", None
    return url, f"a throwaway server from {bindir}", server


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A URL of a database of this session's own on a PostgreSQL server, or skip."""
    global _skip_reason, _server_used
    admin_url, where, server = _find_server()
    if admin_url is None:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(
                f"{REQUIRE_ENV}=1 but there is no PostgreSQL server: {where}", pytrace=False
            )
        _skip_reason = where
        pytest.skip(f"PostgreSQL store tests skipped: {where}")
    _server_used = where
    name = f"teahouse_test_{os.getpid()}_{uuid.uuid4().hex[:6]}"

    async def create() -> bool:
        import asyncpg

        conn = await asyncpg.connect(admin_url)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
            return True
        except asyncpg.InsufficientPrivilegeError:
            return False
        finally:
            await conn.close()

    async def drop() -> None:
        import asyncpg

        conn = await asyncpg.connect(admin_url)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    try:
        own = _run(create())
        yield with_database(admin_url, name) if own else admin_url
        if own:
            _run(drop())
    finally:
        if server is not None:
            server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "postgres":
        request.getfixturevalue("postgres_url")
    return request.param


@pytest.fixture
async def new_database(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """``await new_database()``: the location of a fresh, empty database of the backend —
    an SQLite file, or a PostgreSQL URL whose search_path is a new schema."""
    schemas: list[str] = []
    base = request.getfixturevalue("postgres_url") if backend == "postgres" else None

    async def make() -> str:
        if base is None:
            return str(tmp_path / f"db{len(list(tmp_path.glob('db*')))}.sqlite")
        import asyncpg

        schema = f"t_{uuid.uuid4().hex[:12]}"
        conn = await asyncpg.connect(base)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
        finally:
            await conn.close()
        schemas.append(schema)
        return with_search_path(base, schema)

    yield make
    if schemas:
        import asyncpg

        conn = await asyncpg.connect(base)
        try:
            for schema in schemas:
                await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        finally:
            await conn.close()


@pytest.fixture
async def store(backend: str, new_database) -> AsyncIterator[Store]:
    """A store on a fresh database: SQLite in memory, or PostgreSQL in a new schema."""
    s = await Store.open(":memory:" if backend == "sqlite" else await new_database())
    yield s
    await s.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _server_used is not None:
        terminalreporter.write_line(f"PostgreSQL store tests ran on {_server_used}.")
    if _skip_reason is not None:
        terminalreporter.write_sep("-", "PostgreSQL", yellow=True)
        terminalreporter.write_line(
            f"The PostgreSQL store tests were SKIPPED: {_skip_reason}. Set {URL_ENV} to a "
            "postgresql:// URL, run a server on 127.0.0.1:5432, or install PostgreSQL "
            "(initdb, pg_ctl) to run them.",
            yellow=True,
        )
