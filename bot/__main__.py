"""``python -m bot``: run the bot. ``python -m bot check`` validates the configuration only."""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import signal
import sys

from bot.config import ConfigError, Settings, is_loopback_url, load_dotenv

log = logging.getLogger("bot")

#: Seconds a thread may keep the GIL while another waits for it (CPython's default: 5 ms).
#: A thread that serves the loop (hint texts through ``asyncio.to_thread``; the store's until
#: it ran its statements on the loop) needs the GIL back at every blocking call, and with the
#: event loop busy each of those waits lasts up to the whole interval (measured with the
#: store on a thread at 1,000 tables: decision p50 1.8 s at 5 ms, 0.08 s at 0.5 ms).
SWITCH_INTERVAL = 0.0005


def point_at(settings: Settings) -> None:
    """Test deployments: send REST and gateway traffic to a fake Discord."""
    import discord
    import yarl

    for url in (settings.api_base, settings.gateway_url):
        if url and not is_loopback_url(url):
            raise ConfigError(f"refusing to send the bot token to {url!r}: not a loopback host")
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


async def run(settings: Settings) -> None:
    """Run until the bot stops or SIGINT/SIGTERM asks it to, then close it cleanly.

    The signals only set an event (rather than cancelling the running task, as asyncio.run
    does on Ctrl-C): a cancellation that lands while discord.py waits for its guilds at
    start-up can be swallowed there, leaving a process that never stops.
    """
    from bot.app import Teahouse

    point_at(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    async with Teahouse(settings, manage_heap=True) as bot:
        runner = asyncio.create_task(bot.start(settings.token), name="bot")
        stopper = asyncio.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper.done():
            log.info("stopping (signal received)")
            await bot.close()
            _, pending = await asyncio.wait({runner}, timeout=5)
            for task in pending:
                task.cancel()
        else:
            stopper.cancel()
            runner.result()  # a start-up error (a bad token...) is raised here


def main(argv: list[str]) -> int:
    load_dotenv()
    try:
        settings = Settings.from_env()
    except ConfigError as e:
        print(f"teahouse: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
    )
    if hasattr(signal, "SIGUSR1"):
        # `kill -USR1 <pid>` prints every thread's stack: for a process that seems stuck.
        faulthandler.register(signal.SIGUSR1, all_threads=True)
    if argv[:1] == ["check"]:
        print("configuration OK")
        return 0
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
