-- The DuckDB store of hand histories: one file, written only by `razz import`.
-- Money is exact: BIGINT in the hand's smallest unit (`hands.unit`: 'cent' for real-money
-- cash games, 'chip' for tournament chips and play money), never floating point.
-- A hand is identified by (site, hand_id); every child table refers to it by `hand_key`.
-- Child tables have no primary key on purpose: the importer writes a hand and all its rows in
-- one transaction, only when the hand is new, so they cannot repeat; an index over millions of
-- action rows would cost the writer memory and time for no reader query.
-- Line numbers are 1-based lines of the source file (not of the hand).

CREATE TABLE IF NOT EXISTS meta (
    key           VARCHAR PRIMARY KEY,    -- 'schema_version'
    value         VARCHAR NOT NULL
);

CREATE SEQUENCE IF NOT EXISTS file_ids START 1;

CREATE TABLE IF NOT EXISTS files (
    file_id       BIGINT PRIMARY KEY DEFAULT nextval('file_ids'),
    path          VARCHAR NOT NULL UNIQUE, -- absolute path (zip member: /abs/archive.zip!member)
    size          BIGINT NOT NULL,        -- bytes imported so far; always ends at a hand boundary
    lines         BIGINT NOT NULL,        -- lines in those bytes: the next read starts at line lines+1
    sha256        VARCHAR NOT NULL,       -- of those `size` bytes, to tell growth from rewriting
    imported_at   TIMESTAMPTZ NOT NULL,   -- last import that read from this file
    hands         INTEGER NOT NULL,       -- hands stored from this file (first seen here)
    duplicates    INTEGER NOT NULL,       -- hands read here that were already stored
    skipped       INTEGER NOT NULL,       -- hands of other games
    rejected      INTEGER NOT NULL,       -- hands that could not be read or audited
    findings      INTEGER NOT NULL        -- audit findings in the hands stored from this file
);

CREATE TABLE IF NOT EXISTS hands (
    hand_key      VARCHAR PRIMARY KEY,    -- site || ':' || hand_id
    site          VARCHAR NOT NULL,
    hand_id       VARCHAR NOT NULL,
    game          VARCHAR NOT NULL,       -- 'Razz'
    mixed         VARCHAR,                -- 'HORSE', '8-Game' … or NULL
    kind          VARCHAR NOT NULL,       -- 'cash' | 'tournament'
    small_bet     BIGINT NOT NULL,
    big_bet       BIGINT NOT NULL,
    ante          BIGINT,                 -- as posted (inferred: not in the header)
    bring_in      BIGINT,
    stakes        VARCHAR NOT NULL,       -- display text, e.g. '$0.04/$0.08' or '50/100'
    unit          VARCHAR NOT NULL,       -- 'cent' | 'chip'
    currency      VARCHAR,                -- ISO code or NULL
    play_money    BOOLEAN NOT NULL,
    table_name    VARCHAR NOT NULL,
    max_seats     INTEGER,
    tournament_id VARCHAR,
    buy_in        BIGINT[],               -- parts of the buy-in, in cents (or chips)
    level         VARCHAR,
    started_at    TIMESTAMPTZ NOT NULL,   -- UTC
    started_text  VARCHAR NOT NULL,       -- as written, with its zone
    players       INTEGER NOT NULL,
    hero          VARCHAR,                -- the file owner, when the log shows their cards
    total_pot     BIGINT NOT NULL,
    rake          BIGINT NOT NULL,
    community_card VARCHAR,
    showdown      BOOLEAN NOT NULL,
    findings      INTEGER NOT NULL,       -- number of findings (errors and warnings), consequences apart
    errors        INTEGER NOT NULL,       -- number of error findings, consequences apart
    file_id       BIGINT NOT NULL,        -- the file the hand was first read from
    source        VARCHAR NOT NULL,       -- that file's path (= files.path)
    first_line    INTEGER NOT NULL,       -- line of the header in that file
    -- The text is most of the store's bytes. Left to choose, DuckDB takes DICT_FSST; zstd
    -- stores it in less than half the space (100,000 simulated hands: the table 89 -> 37
    -- MiB, the store 175 -> 138) and checkpoints it in three quarters of the time.
    raw_text      VARCHAR NOT NULL USING COMPRESSION zstd,
    room          VARCHAR                 -- the room as people name it ('Full Tilt Poker'):
                                          -- its site's title in the registry (revision 2)
);

CREATE TABLE IF NOT EXISTS players (
    hand_key      VARCHAR NOT NULL,
    seat          INTEGER NOT NULL,
    player        VARCHAR NOT NULL,
    is_hero       BOOLEAN NOT NULL,
    starting_stack BIGINT NOT NULL,
    final_stack   BIGINT NOT NULL,
    ante          BIGINT NOT NULL,
    invested      BIGINT NOT NULL,
    collected     BIGINT NOT NULL,
    net           BIGINT NOT NULL,
    -- per street: invested, saw, bets, completes (3rd only), raises, calls, checks, folded
    inv_3rd BIGINT NOT NULL, inv_4th BIGINT NOT NULL, inv_5th BIGINT NOT NULL,
    inv_6th BIGINT NOT NULL, inv_7th BIGINT NOT NULL,
    saw_4th BOOLEAN NOT NULL, saw_5th BOOLEAN NOT NULL, saw_6th BOOLEAN NOT NULL,
    saw_7th BOOLEAN NOT NULL,
    bets_3rd INTEGER NOT NULL, bets_4th INTEGER NOT NULL, bets_5th INTEGER NOT NULL,
    bets_6th INTEGER NOT NULL, bets_7th INTEGER NOT NULL,
    completes_3rd INTEGER NOT NULL,
    raises_3rd INTEGER NOT NULL, raises_4th INTEGER NOT NULL, raises_5th INTEGER NOT NULL,
    raises_6th INTEGER NOT NULL, raises_7th INTEGER NOT NULL,
    calls_3rd INTEGER NOT NULL, calls_4th INTEGER NOT NULL, calls_5th INTEGER NOT NULL,
    calls_6th INTEGER NOT NULL, calls_7th INTEGER NOT NULL,
    checks_3rd INTEGER NOT NULL, checks_4th INTEGER NOT NULL, checks_5th INTEGER NOT NULL,
    checks_6th INTEGER NOT NULL, checks_7th INTEGER NOT NULL,
    folded_street VARCHAR,                -- '3rd' … '7th', NULL if never folded
    posted_bring_in BOOLEAN NOT NULL,
    bring_in_completed BOOLEAN NOT NULL,
    bring_in_folded BOOLEAN NOT NULL,
    vpip          BOOLEAN NOT NULL,
    faced_completion BOOLEAN NOT NULL,
    folded_to_completion BOOLEAN NOT NULL,
    steal_attempt BOOLEAN NOT NULL,
    steal_success BOOLEAN NOT NULL,
    went_to_showdown BOOLEAN NOT NULL,
    won_at_showdown BOOLEAN NOT NULL,
    showdown_won  BIGINT NOT NULL,
    final_low     VARCHAR,
    starting_cards VARCHAR[],
    door_card     VARCHAR,
    all_in        BOOLEAN NOT NULL
);

CREATE TABLE IF NOT EXISTS actions (
    hand_key      VARCHAR NOT NULL,
    seq           INTEGER NOT NULL,       -- order in the hand, from 0
    street        VARCHAR,                -- '3rd' … '7th'; NULL for antes and after the river
    player        VARCHAR NOT NULL,
    kind          VARCHAR NOT NULL,       -- ante, bring_in, complete, bet, raise, call, check, fold, uncalled, collect
    amount        BIGINT,                 -- increment put in (or returned / collected)
    to_amount     BIGINT,                 -- the player's street total after a bet or raise
    all_in        BOOLEAN NOT NULL,
    pot_after     BIGINT NOT NULL,        -- the pot after this action
    stack_after   BIGINT NOT NULL,        -- the player's stack after this action
    line          INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS cards (
    hand_key      VARCHAR NOT NULL,
    player        VARCHAR,                -- NULL for the community card
    street        VARCHAR NOT NULL,       -- street the card was dealt on
    position      INTEGER NOT NULL,       -- 1 … 7 in the player's hand (1 for the community card)
    card          VARCHAR NOT NULL,       -- 'Ah'
    visibility    VARCHAR NOT NULL,       -- 'up' | 'down' | 'community'
    shown         BOOLEAN NOT NULL        -- revealed at showdown (or by a voluntary show)
);

CREATE TABLE IF NOT EXISTS pots (
    hand_key      VARCHAR NOT NULL,
    pot_index     INTEGER NOT NULL,       -- 0 = main pot
    amount        BIGINT NOT NULL,
    eligible      VARCHAR[] NOT NULL,
    winners       VARCHAR[] NOT NULL,
    shares        BIGINT[] NOT NULL
);

-- All-in EV (razz.analysis.allin_ev): one row per player of a pot an all-in closed with cards
-- to come, in a hand that reached a showdown with every contesting card shown. A player without
-- a row in a hand keeps their real net as EV. Money is DOUBLE here: an expectation, not chips.
-- Stores made before this table get it, empty, at the next import (older hands have no rows).
CREATE TABLE IF NOT EXISTS allin_ev (
    hand_key      VARCHAR NOT NULL,
    player        VARCHAR NOT NULL,
    street        VARCHAR NOT NULL,       -- when the last chip went in: 'antes', '3rd' … '6th'
    equity        DOUBLE NOT NULL,        -- share of that pot (the first adjusted one) then
    ev_won        DOUBLE NOT NULL,        -- expected winnings from every pot, after rake
    ev_net        DOUBLE NOT NULL,        -- ev_won - invested: the all-in-adjusted net
    exact         BOOLEAN NOT NULL,       -- false: a Monte Carlo estimate (see std_error)
    std_error     DOUBLE NOT NULL         -- of equity; 0 when exact
);

CREATE TABLE IF NOT EXISTS violations (
    hand_key      VARCHAR NOT NULL,
    rule          VARCHAR NOT NULL,       -- an ID of RAZZ_RULES.md
    severity      VARCHAR NOT NULL,       -- 'error' | 'warning'
    line          INTEGER NOT NULL,
    expected      VARCHAR NOT NULL,
    actual        VARCHAR NOT NULL,
    message       VARCHAR NOT NULL,
    -- a consequence: the rule and line of the finding of the same hand it only follows from
    -- (NULL for a violation of its own; the hands' counts count violations only)
    consequence_of_rule VARCHAR,
    consequence_of_line INTEGER
);

-- Rejects and skipped hands are keyed by (file_id, first_line). What lies beyond a file's
-- imported `size` is read again when the file grows, and replaces what was recorded there.
CREATE TABLE IF NOT EXISTS rejects (
    file_id       BIGINT NOT NULL,
    source        VARCHAR NOT NULL,
    hand_id       VARCHAR,                -- when the header could be read
    first_line    INTEGER NOT NULL,       -- line where the hand starts
    line          INTEGER NOT NULL,       -- line of the error
    col           INTEGER NOT NULL,       -- 1-based column (0 when the error has none)
    stage         VARCHAR NOT NULL,       -- 'parse' | 'audit' (the hand read but the audit failed)
    error         VARCHAR NOT NULL,
    line_text     VARCHAR NOT NULL,       -- the offending line as written
    raw_text      VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS skipped (
    file_id       BIGINT NOT NULL,
    source        VARCHAR NOT NULL,
    hand_id       VARCHAR,
    first_line    INTEGER NOT NULL,
    game          VARCHAR NOT NULL,
    reason        VARCHAR NOT NULL
);

-- Names that stand for one person: a player who played as `name` in `room` is shown as
-- `person` in statistics, sessions and the player picker ('' as the room: in every room).
-- Only the user writes it (`razz alias`, the dashboard's control); imports never touch it.
CREATE TABLE IF NOT EXISTS aliases (
    name          VARCHAR NOT NULL,       -- a player name as the logs write it
    room          VARCHAR NOT NULL,       -- hands.room, or '' for every room
    person        VARCHAR NOT NULL,       -- who that is
    PRIMARY KEY (name, room)
);
