-- Scale-out (issue 31): each player's latest DM click at a table that another process
-- drives, so that the driving process answers the player through the click's interaction
-- webhook (no REST budget) wherever the click arrived. Written by the process that served
-- the click, in the transaction of the action's append; read by the driving process with
-- the action (Store.actions_with_clicks_since). A token is a credential valid 15 minutes:
-- rows older than that are ignored and swept (Store.forget_clicks). UNLOGGED: nothing of
-- it needs to survive a crash of the server (a token lost is a DM sent plainly), and it
-- costs no WAL.
CREATE UNLOGGED TABLE click_tokens (
    table_id       BIGINT           NOT NULL,
    seat           INTEGER          NOT NULL,
    -- The action the click made (the reader takes the tokens of the actions it reads).
    idx            INTEGER          NOT NULL,
    application_id BIGINT           NOT NULL,
    token          TEXT             NOT NULL,
    -- The DM the click was on (its webhook's original message).
    message_id     BIGINT,
    -- When the click came, by the database's clock (seconds since the epoch).
    clicked_at     DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seat)
);
