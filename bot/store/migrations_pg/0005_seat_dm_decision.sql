-- Throughput (issue 13): a fingerprint of the decision each seat's current DM message was
-- sent for (a checksum of its legal actions, written with dm_message_id when a decision
-- comes as a new message). After a restart, a person who must act and whose DM offers
-- another decision (the process died between storing the action and sending the DM) gets
-- the fresh DM first, before any notice. NULL: unknown (seats from before this migration).
ALTER TABLE seats ADD COLUMN dm_decision BIGINT;  -- a CRC-32: up to 2^32 - 1
