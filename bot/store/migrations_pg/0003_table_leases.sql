-- Which process drives each running table (its timers, AI seats, claim windows, table
-- message and end), and until when: seconds since the epoch by the database server's clock
-- (the processes' clocks may differ). A process drives only the tables whose unexpired lease
-- it holds and renews them; an expired lease may be claimed by any process (see
-- Store.claim_free_leases).
CREATE TABLE table_leases (
    table_id        BIGINT           PRIMARY KEY REFERENCES tables (id),
    owner           TEXT             NOT NULL,
    expires_at      DOUBLE PRECISION NOT NULL,
    -- When the lease this one replaced ran out (NULL for a first lease): how long the table
    -- went without a driver, so a taken-over timer does not count that time.
    previous_expiry DOUBLE PRECISION
);
CREATE INDEX table_leases_by_owner ON table_leases (owner);
