"""The bot token's REST budget shared live by all of its processes: one token bucket in
Redis (``TEAHOUSE_REDIS_URL``), refilled at the token's rate and drawn from atomically by a
Lua script, so a busy process may use what a quiet one leaves and the processes together
stay within the token's rate. See :class:`~bot.host.budget.RestBudget` for how a process
draws from it (in batches, only for requests that wait) and falls back to its static share
while Redis does not answer.

Each draw also reports what the process's send gate counts now (:class:`GateCount`: the
requests in flight, and the answered ones by when within the next second they leave the
count) and returns what the other processes' gates count: each gate lets through only what
the others leave of the token's window, so requests granted in time but sent late (a
picture drawn first, a busy loop) cannot bunch up across processes into more than the
global limit in a second. A report ages by itself: a reader counts another process's
answered requests only until they leave that process's count, so a process that went quiet
after a busy moment does not hold the others' windows down for the rest of its report's
life (``GATE_REPORT_SECONDS``, which only its requests in flight last).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: The bucket's state is (tokens, when last refilled), refilled by Redis's own clock (the
#: processes' clocks may differ; Redis's is the one they share), and the process owed the
#: next token (refused last). Returns what was granted, the seconds until the next token
#: this process may take, and what the other processes' gates count.
_DRAW = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local me = ARGV[4]
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'owed', 'owed_at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
elseif now > at then
  tokens = math.min(burst, tokens + (now - at) * rate)
end
-- The process refused last is owed the next token: others leave it one while it is due
-- back (its pump draws again when the next token is whole), so two busy processes take
-- turns instead of the one whose loop happens to wake first taking every token.
local owed = state[3]
local keep = 0
if owed and owed ~= me and now - tonumber(state[4]) <= 2 / rate + 0.05 then keep = 1 end
local granted = math.max(0, math.min(want, math.floor(tokens - keep)))
-- Spare tokens (for the process's next requests) only from a bucket that keeps one after:
-- an idle token's, never a contended one's.
local spare = math.max(0, math.min(tonumber(ARGV[7]), math.floor(tokens - keep - granted) - 1))
if want > 0 and granted == 0 then
  redis.call('HSET', KEYS[1], 'owed', me, 'owed_at', tostring(now))
elseif owed == me and granted > 0 then
  redis.call('HDEL', KEYS[1], 'owed', 'owed_at')
end
granted = granted + spare
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], 60000)
local wait = 0
if tokens < 1 + keep then wait = (1 + keep - tokens) / rate end
-- The gates: each process's report and when it made it. A report is the requests in
-- flight (counted while the report stands), then the answered ones by the tenth of a
-- second in which they leave the process's count (each counted until then).
redis.call('HSET', KEYS[2], me, tostring(now) .. ' ' .. ARGV[5])
redis.call('PEXPIRE', KEYS[2], 60000)
local stale = tonumber(ARGV[6])
local others = 0
local gates = redis.call('HGETALL', KEYS[2])
for i = 1, #gates, 2 do
  if gates[i] ~= me then
    local at = nil
    local age = 0
    local k = -2
    for field in string.gmatch(gates[i + 1], '%S+') do
      if k == -2 then
        at = tonumber(field)
        age = now - at
        if age > stale then break end
      elseif k == -1 then
        others = others + tonumber(field)
      elseif (k + 1) * 0.1 > age then
        others = others + tonumber(field)
      end
      k = k + 1
    end
    if age > stale then redis.call('HDEL', KEYS[2], gates[i]) end
  end
end
return {granted, tostring(wait), others}
"""


KEY_PREFIX = "teahouse:rest-budget:"


@dataclass(frozen=True)
class GateCount:
    """What a process's send gate counts at one moment, as it reports it to the others:
    ``in_flight`` requests sent and not answered, and ``leaving[k]`` answered requests that
    leave the count (a second after their answer) between ``k`` and ``k + 1`` tenths of a
    second from now."""

    in_flight: int = 0
    leaving: tuple[int, ...] = ()

    #: Tenths of a second a report covers (an answer leaves the count a second after).
    SLOTS = 10

    def encode(self) -> str:
        slots = list(self.leaving[: self.SLOTS]) + [0] * (self.SLOTS - len(self.leaving))
        return " ".join(str(int(n)) for n in [self.in_flight, *slots])

    def total(self) -> int:
        return self.in_flight + sum(self.leaving)


def bucket_key(token: str) -> str:
    """The Redis key of the bot token's bucket: a hash of the token, never the token."""
    return KEY_PREFIX + hashlib.sha256(token.encode()).hexdigest()[:24]


class SharedBucketDown(Exception):
    """Redis did not answer (or refused): the caller falls back to its own share."""


class SharedBucket:
    """A token bucket of ``rate`` requests per second, bursts up to ``burst``, kept in Redis
    under a key derived from the bot token (never the token itself), so every process of
    one bot token draws from the same bucket and processes of other tokens from others.

    Each :meth:`draw` is one round trip; a call that takes longer than ``timeout`` counts
    as Redis being down (no retries: the caller has a fallback and must not wait)."""

    #: s a process's report of its requests in flight stands for (a busy process reports
    #: far more often; its answered requests leave the others' counts by themselves).
    GATE_REPORT_SECONDS = 1.5

    def __init__(
        self,
        url: str,
        token: str,
        rate: float,
        burst: float,
        *,
        timeout: float = 0.5,
        client: Any = None,
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("the shared REST budget needs a positive rate and a burst of 1+")
        self.rate = float(rate)
        self.burst = float(burst)
        self.key = bucket_key(token)
        self.gates_key = self.key + ":gates"
        #: This process's name among the gates (a run of its own: a restart is a new one).
        self.me = secrets.token_hex(6)
        if client is None:
            from redis.asyncio import Redis
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            client = Redis.from_url(
                url,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 0),
                health_check_interval=0,
            )
        self._client = client
        self._script = client.register_script(_DRAW)

    async def draw(
        self, want: int, counted: GateCount | None = None, spare: int = 0
    ) -> tuple[int, float, int]:
        """Take up to ``want`` tokens, and up to ``spare`` more if the bucket still holds
        one after them (it is not contended), reporting what this process's gate counts:
        (how many were granted, seconds until the next whole token, what the other
        processes' gates count now). Raises :class:`SharedBucketDown` if Redis does not
        answer."""
        from redis.exceptions import RedisError

        report = (counted or GateCount()).encode()
        args = [self.rate, self.burst, max(0, int(want)), self.me, report]
        try:
            granted, wait, others = await self._script(
                keys=[self.key, self.gates_key],
                args=[*args, self.GATE_REPORT_SECONDS, max(0, int(spare))],
            )
        except (RedisError, OSError) as error:
            raise SharedBucketDown(f"{type(error).__name__}: {error}") from error
        return int(granted), float(wait), int(others)

    async def close(self) -> None:
        from redis.exceptions import RedisError

        try:
            await self._client.aclose()
        except (RedisError, OSError):  # (closing a client whose server is gone)
            pass
