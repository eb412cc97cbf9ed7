-- Scale-out (issue 31): a pass given in an open answer window (a Mah-Jongg claim window)
-- before anyone claimed is held till the window closes (applied at once it would show who
-- was asked). A process that serves such a click for a table another process drives
-- writes it here, so the driver holds it too: it answers the seat's pass as the player's
-- at the close, and resolves a claim at once when that pass was all it waited for. One row
-- per seat; a row counts only for the decision of its prompt version. See the PostgreSQL
-- migration of the same number.
CREATE TABLE held_passes (
    table_id INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    -- The prompt version of the decision the pass answers.
    version  INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
