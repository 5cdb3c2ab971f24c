-- Generated from pipelines/store/migrations/ by `python -m pipelines.store.migrations --write`; do not edit.

-- migration 001_initial
-- 001: the store's tables. Keys are natural ids so a replayed round overwrites its own rows.
CREATE TABLE IF NOT EXISTS tables (
    table_id VARCHAR PRIMARY KEY,
    game VARCHAR NOT NULL,
    name VARCHAR
);
CREATE TABLE IF NOT EXISTS dealers (
    dealer_id VARCHAR PRIMARY KEY,
    name VARCHAR
);
CREATE TABLE IF NOT EXISTS shifts (
    shift VARCHAR PRIMARY KEY,
    starts TIME NOT NULL,
    ends TIME NOT NULL
);
CREATE TABLE IF NOT EXISTS dealer_assignments (
    dealer_id VARCHAR NOT NULL,
    table_id VARCHAR NOT NULL,
    from_ts TIMESTAMP NOT NULL,
    to_ts TIMESTAMP NOT NULL,
    PRIMARY KEY (dealer_id, table_id, from_ts)
);
CREATE TABLE IF NOT EXISTS rounds (
    round_id VARCHAR PRIMARY KEY,
    table_id VARCHAR NOT NULL,
    game VARCHAR NOT NULL,
    started_at TIMESTAMP NOT NULL,
    ended_at TIMESTAMP,
    dealer_id VARCHAR,
    status VARCHAR NOT NULL,
    n_wagers INTEGER NOT NULL,
    handle DOUBLE NOT NULL,
    doc JSON NOT NULL
);
CREATE TABLE IF NOT EXISTS wagers (
    round_id VARCHAR NOT NULL,
    seat INTEGER NOT NULL,
    spot VARCHAR NOT NULL,
    hand INTEGER NOT NULL,
    amount DOUBLE,
    settled_amount DOUBLE,
    exp_outcome VARCHAR,
    exp_net DOUBLE,
    exp_order INTEGER,
    line VARCHAR,
    house_edge DOUBLE,
    var_per_unit DOUBLE,
    obs_outcome VARCHAR,
    obs_paid DOUBLE,
    obs_net DOUBLE,
    obs_seq INTEGER,
    diff DOUBLE,
    uncertain BOOLEAN,
    PRIMARY KEY (round_id, seat, spot, hand)
);
CREATE TABLE IF NOT EXISTS cards (
    round_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    owner VARCHAR NOT NULL,
    card VARCHAR,
    face_up BOOLEAN,
    back VARCHAR,
    frame INTEGER,
    uncertain BOOLEAN,
    PRIMARY KEY (round_id, seq)
);
CREATE TABLE IF NOT EXISTS events (
    round_id VARCHAR NOT NULL,
    seq INTEGER NOT NULL,
    type VARCHAR NOT NULL,
    frame INTEGER NOT NULL,
    seat INTEGER,
    spot VARCHAR,
    hand INTEGER,
    before DOUBLE,
    after DOUBLE,
    card VARCHAR,
    owner VARCHAR,
    uncertain BOOLEAN,
    PRIMARY KEY (round_id, seq)
);
CREATE TABLE IF NOT EXISTS flags (
    flag_id VARCHAR PRIMARY KEY,
    type VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    table_id VARCHAR NOT NULL,
    round_id VARCHAR NOT NULL,
    game VARCHAR NOT NULL,
    started_at TIMESTAMP,
    seat INTEGER,
    spot VARCHAR,
    hand INTEGER,
    severity VARCHAR NOT NULL,
    amount DOUBLE,
    expected DOUBLE,
    observed DOUBLE,
    frame_start INTEGER,
    frame_end INTEGER,
    snapshots JSON,
    rule VARCHAR NOT NULL,
    detail VARCHAR,
    uncertain BOOLEAN NOT NULL
);
CREATE TABLE IF NOT EXISTS reviews (
    flag_id VARCHAR NOT NULL,
    reviewed_at TIMESTAMP NOT NULL,
    reviewer VARCHAR NOT NULL,
    disposition VARCHAR NOT NULL,
    note VARCHAR,
    PRIMARY KEY (flag_id, reviewed_at)
);
CREATE TABLE IF NOT EXISTS accounting (
    table_id VARCHAR NOT NULL,
    shift_date DATE NOT NULL,
    shift VARCHAR NOT NULL,
    drop_amount DOUBLE NOT NULL,
    fills DOUBLE NOT NULL,
    credits DOUBLE NOT NULL,
    opening DOUBLE NOT NULL,
    closing DOUBLE NOT NULL,
    PRIMARY KEY (table_id, shift_date, shift)
);

-- migration 002_dead_letters_and_indexes
-- 002: messages the sink could not accept, kept with the reason; lookups by table and time.
CREATE TABLE IF NOT EXISTS dead_letters (
    topic VARCHAR NOT NULL,
    key VARCHAR,
    reason VARCHAR NOT NULL,
    payload VARCHAR NOT NULL
);
CREATE INDEX IF NOT EXISTS rounds_table_time ON rounds (table_id, started_at);
CREATE INDEX IF NOT EXISTS flags_round ON flags (round_id);

-- migration 003_report_rollup
-- 003: the report rollup (pipelines/store/rollup.py): hold and dealer totals per table, game, shift date,
-- shift and dealer, kept up to date at write time; filled from the stored rounds when this migration runs.
CREATE TABLE IF NOT EXISTS round_rollup (
    table_id VARCHAR NOT NULL,
    game VARCHAR NOT NULL,
    shift VARCHAR NOT NULL,
    shift_date DATE NOT NULL,
    dealer_id VARCHAR NOT NULL,
    n_rounds BIGINT NOT NULL,
    first_start TIMESTAMP NOT NULL,
    last_start TIMESTAMP NOT NULL,
    last_end TIMESTAMP NOT NULL,
    rounds BIGINT NOT NULL,
    wagers BIGINT NOT NULL,
    drop_vision DOUBLE,
    net_vision DOUBLE,
    theo_win DOUBLE,
    band_mean DOUBLE,
    band_var DOUBLE,
    band_net DOUBLE,
    wagers_without_odds BIGINT NOT NULL,
    flagged_rounds BIGINT NOT NULL,
    overpaid DOUBLE,
    underpaid DOUBLE,
    past_post BIGINT NOT NULL,
    pinch BIGINT NOT NULL,
    payout_error BIGINT NOT NULL,
    missed_collection BIGINT NOT NULL,
    misdeal BIGINT NOT NULL,
    procedure BIGINT NOT NULL,
    void_handling BIGINT NOT NULL,
    PRIMARY KEY (table_id, game, shift_date, shift, dealer_id)
);
CREATE TABLE IF NOT EXISTS rollup_shifts (
    shift VARCHAR PRIMARY KEY,
    starts TIME NOT NULL,
    ends TIME NOT NULL
);
