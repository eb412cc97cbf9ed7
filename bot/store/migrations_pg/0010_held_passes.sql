-- Scale-out (issue 31): a pass given in an open answer window (a Mah-Jongg claim window)
-- before anyone claimed is held till the window closes (applied at once it would show who
-- was asked). A process that serves such a click for a table another process drives
-- (every DM click arrives at shard 0's) writes it here and notifies the driver
-- ('<table>:held' on the actions channel), so the driver holds it too: it answers the
-- seat's pass as the player's at the close, and resolves a claim at once when that pass
-- was all it waited for (Store.hold_pass, Store.held_passes). One row per seat; a row
-- counts only for the decision of its prompt version. UNLOGGED: a crash of the server
-- loses only held passes, whose windows then close on their own (a pass all the same).
CREATE UNLOGGED TABLE held_passes (
    table_id BIGINT  NOT NULL,
    seat     INTEGER NOT NULL,
    -- The prompt version of the decision the pass answers.
    version  INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat)
);
