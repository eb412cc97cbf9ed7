"""``python -m bot``: run the bot. ``python -m bot check`` validates the configuration only."""

from __future__ import annotations

import asyncio
import logging
import sys

from bot.config import ConfigError, Settings, is_loopback_url, load_dotenv


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
    from bot.app import Teahouse

    point_at(settings)
    async with Teahouse(settings) as bot:
        await bot.start(settings.token)


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
    if argv[:1] == ["check"]:
        print("configuration OK")
        return 0
    try:
        asyncio.run(run(settings))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
