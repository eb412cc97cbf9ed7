-- AI levels (issue 30): the level an AI seat was added with (easy, normal, strong), so a
-- restart keeps it. NULL: normal (seats from before this migration, and people's seats: an
-- AI taking over an absent player plays normal).
ALTER TABLE seats ADD COLUMN ai_level TEXT;
