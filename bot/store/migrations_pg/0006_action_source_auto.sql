-- Answer windows and one-answer decisions (issue 27): an action the bot made for a player
-- without asking them — a pass at a claim window's close for a player who could not claim,
-- a decision with one possible move — is logged with source 'auto': it is neither the
-- player's click, nor an AI's choice, nor a timeout.
ALTER TABLE actions DROP CONSTRAINT actions_source_check;
ALTER TABLE actions ADD CONSTRAINT actions_source_check
    CHECK (source IN ('player', 'ai', 'timeout', 'auto'));
