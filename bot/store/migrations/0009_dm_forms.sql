-- Scale-out (issue 31): the forms (Panda's pass-cards form) of each seat's current DM
-- decision, written by the process driving the table when the decision begins, so that
-- a process that does not hold the table answers the form's button with its modal at
-- once (a modal must be the first answer, within Discord's 3 s) without loading and
-- replaying the table. One row per seat (its latest form decision). See the PostgreSQL
-- migration of the same number.
CREATE TABLE dm_forms (
    table_id INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    -- The prompt version the decision's controls carry (the form button's custom id).
    version  INTEGER NOT NULL,
    -- The decision's forms as JSON, said in the seat's language.
    forms    TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
