-- Languages (issue 12). Locales are bot.i18n.LOCALES values: en-US, ja, zh-CN, zh-TW, ko.
-- A table's language: its lobby, table message, thread posts and table picture. Chosen with
-- `/<game> new language:`, else the server's preferred locale; tables from before: English.
ALTER TABLE tables ADD COLUMN locale TEXT NOT NULL DEFAULT 'en-US';

-- Each user's Discord language as of their last interaction with the bot: the DMs sent to
-- them between clicks (their prompts, controls, hand pictures) are written in it.
CREATE TABLE user_locales (
    user_id    BIGINT           PRIMARY KEY,
    locale     TEXT             NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
