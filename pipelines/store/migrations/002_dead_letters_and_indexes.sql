-- 002: messages the sink could not accept, kept with the reason; lookups by table and time.
CREATE TABLE IF NOT EXISTS dead_letters (
    topic VARCHAR NOT NULL,
    key VARCHAR,
    reason VARCHAR NOT NULL,
    payload VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS rounds_table_time ON rounds (table_id, started_at);
CREATE INDEX IF NOT EXISTS flags_round ON flags (round_id);
