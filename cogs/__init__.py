"""Discord cogs: thin wiring from slash commands to the host and the store."""
