-- Teahouse initial schema. Timestamps are Unix epoch seconds (REAL, UTC).
-- Discord snowflakes fit SQLite's signed 64-bit INTEGER.

CREATE TABLE tables (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    thread_id        INTEGER,
    game             TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(options)),
    seed             TEXT    NOT NULL,
    host_id          INTEGER NOT NULL,
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    lobby_message_id INTEGER,
    table_message_id INTEGER,
    created_at       REAL    NOT NULL,
    started_at       REAL,
    finished_at      REAL
);
CREATE INDEX tables_by_status ON tables (status);

CREATE TABLE seats (
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER,
    name          TEXT    NOT NULL,
    is_ai         INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    ai_takeover   INTEGER NOT NULL DEFAULT 0 CHECK (ai_takeover IN (0, 1)),
    dm_channel_id INTEGER,
    dm_message_id INTEGER,
    dms_closed    INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1)),
    timeouts      INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    PRIMARY KEY (table_id, seat),
    -- an AI seat has no user; a human seat always has one (even when an AI took it over)
    CHECK ((is_ai = 1) = (user_id IS NULL))
);
CREATE INDEX seats_by_user ON seats (user_id);

-- The action log a table is replayed from: append-only.
CREATE TABLE actions (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    idx        INTEGER NOT NULL CHECK (idx >= 0),
    seat       INTEGER NOT NULL,
    code       TEXT    NOT NULL,
    source     TEXT    NOT NULL CHECK (source IN ('player', 'ai', 'timeout')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, idx)
) WITHOUT ROWID;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: UPDATE is not allowed');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions are append-only: DELETE is not allowed');
END;

CREATE TABLE results (
    table_id   INTEGER NOT NULL REFERENCES tables (id),
    seat       INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER,
    name       TEXT    NOT NULL,
    score      INTEGER NOT NULL,
    place      INTEGER NOT NULL CHECK (place >= 1),
    team       INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_by_player ON results (guild_id, game, user_id);
CREATE INDEX results_by_user ON results (guild_id, user_id);

-- One row per rated player and (guild, game); user_id 0 is the shared AI pseudo-player.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
