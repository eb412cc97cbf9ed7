-- Scale-out (issue 31): the forms (Panda's pass-cards form) of each seat's current DM
-- decision, written by the process driving the table when the decision begins, so that
-- a process that does not hold the table (every DM click arrives at shard 0's) answers
-- the form's button with its modal at once — a modal must be the first answer, within
-- Discord's 3 s — without loading and replaying the table (Store.dm_form). One row per
-- seat, its latest form decision; a row is current only while the seat has made no move
-- since its version (checked by the reader against the log). UNLOGGED: a crash of the
-- server loses only forms, whose buttons are then answered by loading the table.
CREATE UNLOGGED TABLE dm_forms (
    table_id BIGINT  NOT NULL,
    seat     INTEGER NOT NULL,
    -- The prompt version the decision's controls carry (the form button's custom id).
    version  INTEGER NOT NULL,
    -- The decision's forms as JSON, said in the seat's language.
    forms    TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
