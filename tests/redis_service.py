"""The Redis server the tests that need one use: ``TEAHOUSE_TEST_REDIS`` (a ``redis://``
URL; a failure to connect is an error), else the local server at
``redis://127.0.0.1:6379/0`` if it answers; otherwise those tests are skipped with the
reason — unless ``TEAHOUSE_REQUIRE_REDIS=1`` (CI), which makes that a failure. Each test
works under keys of its own (a fresh bot token), deleted afterwards."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

URL_ENV = "TEAHOUSE_TEST_REDIS"
REQUIRE_ENV = "TEAHOUSE_REQUIRE_REDIS"
LOCAL_URL = "redis://127.0.0.1:6379/0"


def _answers(url: str) -> Exception | None:
    from redis import Redis

    client = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    except Exception as exc:  # (any failure means: no server to test against)
        return exc
    finally:
        client.close()
    return None


@pytest.fixture(scope="session")
def redis_url() -> str:
    """A Redis server's URL, or skip (fail under ``TEAHOUSE_REQUIRE_REDIS=1``)."""
    try:
        import redis  # noqa: F401
    except ImportError:
        where = "the redis client is not installed (pip install -e .)"
    else:
        url = os.environ.get(URL_ENV)
        if url:
            error = _answers(url)
            if error is not None:
                pytest.fail(f"{URL_ENV}={url} does not answer: {error!r}", pytrace=False)
            return url
        error = _answers(LOCAL_URL)
        if error is None:
            return LOCAL_URL
        where = f"no Redis server at {LOCAL_URL} ({error!r}); set {URL_ENV}"
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {where}", pytrace=False)
    pytest.skip(f"Redis tests skipped: {where}")


@pytest.fixture
def redis_keys(redis_url: str) -> Iterator[list[str]]:
    """Keys a test made (it appends them); deleted after the test."""
    keys: list[str] = []
    yield keys
    if keys:
        from redis import Redis

        client = Redis.from_url(redis_url)
        try:
            client.delete(*keys)
        finally:
            client.close()
