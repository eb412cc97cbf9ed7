"""Host tests that need a database of either backend use the store tests' fixtures
(``new_database`` over SQLite and PostgreSQL; see tests/store/conftest.py); those that need
Redis, ``redis_url`` (tests/redis_service.py)."""

from tests.redis_service import redis_keys, redis_url
from tests.store.conftest import backend, new_database, postgres_url

__all__ = ["backend", "new_database", "postgres_url", "redis_keys", "redis_url"]
