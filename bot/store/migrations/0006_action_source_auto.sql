-- Answer windows and one-answer decisions (issue 27): an action the bot made for a player
-- without asking them — a pass at a claim window's close for a player who could not claim,
-- a decision with one possible move — is logged with source 'auto': it is neither the
-- player's click, nor an AI's choice, nor a timeout. SQLite cannot change a CHECK in place:
-- the append-only log is copied into a table that allows it (its triggers come back).
CREATE TABLE actions_new (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    seat       INTEGER NOT NULL,
    code       TEXT    NOT NULL,
    source     TEXT    NOT NULL CHECK (source IN ('player', 'ai', 'timeout', 'auto')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;

INSERT INTO actions_new (table_id, idx, seat, code, source, created_at)
    SELECT table_id, idx, seat, code, source, created_at FROM actions;

DROP TRIGGER actions_no_update;
DROP TRIGGER actions_no_delete;
DROP TABLE actions;
ALTER TABLE actions_new RENAME TO actions;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: UPDATE is not allowed');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: DELETE is not allowed');
END;
