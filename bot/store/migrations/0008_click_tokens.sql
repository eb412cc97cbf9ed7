-- Scale-out (issue 31): each player's latest DM click at a table that another process
-- drives, so that the driving process answers the player through the click's interaction
-- webhook (no REST budget) wherever the click arrived. One process on SQLite drives every
-- table and never writes it; two hosts on one SQLite file (tests) do. See the PostgreSQL
-- migration of the same number (an UNLOGGED table there).
CREATE TABLE click_tokens (
    table_id       INTEGER NOT NULL,
    seat           INTEGER NOT NULL,
    idx            INTEGER NOT NULL,
    application_id INTEGER NOT NULL,
    token          TEXT    NOT NULL,
    message_id     INTEGER,
    clicked_at     REAL    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
