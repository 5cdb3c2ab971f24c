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
