-- Throughput (issue 13): the state version at which each seat's current DM message was sent
-- (written with dm_message_id, when a decision comes as a new message). After a restart, a
-- person who must act and whose DM predates their decision (the process died between
-- storing the action and sending the DM) gets the fresh DM first, before any notice.
-- NULL: unknown (seats from before this migration): treated as behind.
ALTER TABLE seats ADD COLUMN dm_version INTEGER;
