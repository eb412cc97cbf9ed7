-- Quotas count open lobbies and running tables per guild and per host.
CREATE INDEX tables_by_guild_status ON tables (guild_id, status);
CREATE INDEX tables_by_host_status ON tables (host_id, status);
