-- Analytics over the store: table macros that take the dashboard's filters, and views that
-- call them with no filter. Applied by the writer each time it opens the database.
--
-- Every filter parameter defaults to NULL, meaning "no filter":
--   p_from, p_to  hands started at or after p_from and before p_to (TIMESTAMPTZ)
--   p_kind        'cash' | 'tournament'
--   p_stakes      hands.stakes, e.g. '$0.04/$0.08'
--   p_table       hands.table_name
--   p_room        hands.room, e.g. 'Winamax'
--   p_player      a person: a player name, or the person that `aliases` makes of names
-- Call them with bound parameters only, e.g.
--   SELECT * FROM player_stats_for(p_player := ?, p_from := ?)
-- Rates come with their numerator and denominator columns; a rate with a zero denominator is
-- NULL. Money is summed per (unit, currency): chips and cents are never added together, so
-- the statistics of a player who has both come as one row per currency.

CREATE OR REPLACE MACRO hands_for(
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
SELECT *
FROM hands
WHERE (p_from IS NULL OR started_at >= p_from)
  AND (p_to IS NULL OR started_at < p_to)
  AND (p_kind IS NULL OR kind = p_kind)
  AND (p_stakes IS NULL OR stakes = p_stakes)
  AND (p_table IS NULL OR table_name = p_table)
  AND (p_room IS NULL OR room = p_room);

-- One row per player per hand, with the hand's context and per-hand derived figures.
-- `player` is the person: the name as written unless `aliases` makes it someone's name in
-- that room (or in every room, room ''); `screen_name` keeps the name as written.
CREATE OR REPLACE MACRO player_hands_for(
    p_player := NULL,
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
SELECT
    p.* REPLACE (coalesce(ar.person, aa.person, p.player) AS player),
    p.player AS screen_name,
    h.site, h.room, h.hand_id, h.kind, h.stakes, h.small_bet, h.big_bet, h.unit, h.currency,
    h.play_money, h.table_name, h.tournament_id, h.started_at, h.players AS players_dealt,
    h.total_pot, h.rake AS hand_rake, h.showdown AS hand_showdown, h.findings AS hand_findings,
    h.file_id, h.source, h.first_line,
    p.net / h.big_bet AS net_bb,                               -- DOUBLE: the hand's big bets
    p.completes_3rd + p.raises_3rd > 0 AS complete_or_raise_3rd,
    p.posted_bring_in OR p.bring_in_completed AS had_bring_in,
    -- The rake is taken from what the winners collect: each pays it pro rata.
    CASE WHEN h.total_pot > h.rake
         THEN h.rake * p.collected / (h.total_pot - h.rake) ELSE 0 END AS rake_paid,
    -- All-in EV (table allin_ev): the all-in-adjusted net, the real net where no all-in
    -- pot was adjusted; luck is net - ev_net.
    e.hand_key IS NOT NULL AS allin_adjusted,
    e.street AS allin_street, e.equity AS allin_equity,
    coalesce(e.ev_net, p.net) AS ev_net,
    coalesce(e.ev_net, p.net) / h.big_bet AS ev_net_bb,
    p.net - coalesce(e.ev_net, p.net) AS luck,
    (p.net - coalesce(e.ev_net, p.net)) / h.big_bet AS luck_bb
FROM players AS p
JOIN hands_for(
    p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
) AS h USING (hand_key)
LEFT JOIN allin_ev AS e ON e.hand_key = p.hand_key AND e.player = p.player
LEFT JOIN aliases AS ar ON ar.name = p.player AND ar.room = h.room
LEFT JOIN aliases AS aa ON aa.name = p.player AND aa.room = ''
-- The person's own name first: a test on the name alone, which the scan of players can use.
-- (Not `p.player IN (SELECT …)` alone: with it DuckDB 2.0's compressed materialization
-- casts the sums of player_stats_for to a too small type under ORDER BY.)
WHERE p_player IS NULL
   OR (p.player = p_player OR p.player IN (SELECT name FROM aliases WHERE person = p_player))
      AND coalesce(ar.person, aa.person, p.player) = p_player;

CREATE OR REPLACE VIEW player_hands AS SELECT * FROM player_hands_for();

-- A table of sums (store/summaries.py: `player_days`, `player_starts`, `player_runs`) with the
-- person of each name, as player_hands_for has it; `screen_name` keeps the name as written.
CREATE OR REPLACE MACRO person_sums(sums, p_player := NULL) AS TABLE
SELECT d.* REPLACE (coalesce(ar.person, aa.person, d.player) AS player),
       d.player AS screen_name
FROM query_table(sums) AS d
LEFT JOIN aliases AS ar ON ar.name = d.player AND ar.room = d.room
LEFT JOIN aliases AS aa ON aa.name = d.player AND aa.room = ''
WHERE p_player IS NULL
   OR (d.player = p_player OR d.player IN (SELECT name FROM aliases WHERE person = p_player))
      AND coalesce(ar.person, aa.person, d.player) = p_player;

CREATE OR REPLACE MACRO person_days(p_player := NULL) AS TABLE
SELECT * FROM person_sums('player_days', p_player := p_player);

-- Every person with their hands, and those where the logs show their hole cards (the hero's).
CREATE OR REPLACE MACRO people() AS TABLE
SELECT player, sum(hands)::BIGINT AS hands, sum(hero_hands)::BIGINT AS hero_hands
FROM person_days() GROUP BY player;


-- Per-player statistics, one row per (player, unit, currency).
CREATE OR REPLACE MACRO player_stats_for(
    p_player := NULL,
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
WITH s AS (
    SELECT
        player, unit, currency,
        string_agg(DISTINCT room, ', ' ORDER BY room) AS rooms,   -- where the hands were played
        string_agg(DISTINCT screen_name, ', ' ORDER BY screen_name) AS names,  -- as written
        count(*) AS hands,
        count(*) FILTER (WHERE is_hero) AS hands_as_hero,
        count(*) FILTER (WHERE vpip) AS vpip,
        count(*) FILTER (WHERE complete_or_raise_3rd) AS complete_raise,
        count(*) FILTER (WHERE had_bring_in) AS bring_in_hands,
        count(*) FILTER (WHERE posted_bring_in) AS bring_in_posted,
        count(*) FILTER (WHERE bring_in_completed) AS bring_in_completed,
        count(*) FILTER (WHERE bring_in_folded) AS bring_in_folded,
        count(*) FILTER (WHERE faced_completion) AS faced_completion,
        count(*) FILTER (WHERE folded_to_completion) AS folded_to_completion,
        count(*) FILTER (WHERE steal_attempt) AS steal_attempts,
        count(*) FILTER (WHERE steal_success) AS steal_successes,
        count(*) FILTER (WHERE saw_4th) AS saw_4th,
        count(*) FILTER (WHERE saw_5th) AS saw_5th,
        count(*) FILTER (WHERE saw_6th) AS saw_6th,
        count(*) FILTER (WHERE saw_7th) AS saw_7th,
        count(*) FILTER (WHERE went_to_showdown) AS showdowns,
        count(*) FILTER (WHERE won_at_showdown) AS showdowns_won,
        -- aggressive actions (bets, completions, raises) and calls, per street
        sum(bets_3rd + completes_3rd + raises_3rd) AS aggr_3rd, sum(calls_3rd) AS calls_3rd,
        sum(bets_4th + raises_4th) AS aggr_4th, sum(calls_4th) AS calls_4th,
        sum(bets_5th + raises_5th) AS aggr_5th, sum(calls_5th) AS calls_5th,
        sum(bets_6th + raises_6th) AS aggr_6th, sum(calls_6th) AS calls_6th,
        sum(bets_7th + raises_7th) AS aggr_7th, sum(calls_7th) AS calls_7th,
        sum(net) AS net,
        sum(net) FILTER (WHERE went_to_showdown) AS net_showdown,
        sum(net) FILTER (WHERE NOT went_to_showdown) AS net_no_showdown,
        sum(net_bb) AS net_bb,
        round(sum(rake_paid))::BIGINT AS rake_paid,
        count(*) FILTER (WHERE allin_adjusted) AS allin_hands,
        sum(ev_net) AS ev_net,
        sum(ev_net_bb) AS ev_net_bb,
        sum(luck) AS luck,
        sum(luck_bb) AS luck_bb
    FROM player_hands_for(
        p_player := p_player,
        p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
    )
    GROUP BY player, unit, currency
)
SELECT
    s.*,
    vpip / hands AS vpip_pct,
    complete_raise / hands AS complete_raise_pct,
    bring_in_posted / nullif(bring_in_hands, 0) AS bring_in_posted_pct,
    bring_in_completed / nullif(bring_in_hands, 0) AS bring_in_completed_pct,
    bring_in_folded / nullif(bring_in_posted, 0) AS bring_in_folded_pct,
    folded_to_completion / nullif(faced_completion, 0) AS fold_to_completion_pct,
    steal_attempts / hands AS steal_attempt_pct,
    steal_successes / nullif(steal_attempts, 0) AS steal_success_pct,
    saw_4th / hands AS saw_4th_pct,
    saw_5th / hands AS saw_5th_pct,
    saw_6th / hands AS saw_6th_pct,
    saw_7th / hands AS saw_7th_pct,
    showdowns / nullif(saw_4th, 0) AS wtsd_pct,                -- went to showdown, of saw 4th
    showdowns_won / nullif(showdowns, 0) AS wsd_pct,           -- won at showdown, of showdowns
    aggr_3rd / nullif(calls_3rd, 0) AS af_3rd,                 -- aggression factor
    aggr_4th / nullif(calls_4th, 0) AS af_4th,
    aggr_5th / nullif(calls_5th, 0) AS af_5th,
    aggr_6th / nullif(calls_6th, 0) AS af_6th,
    aggr_7th / nullif(calls_7th, 0) AS af_7th,
    100 * net_bb / hands AS bb_per_100
FROM s;

CREATE OR REPLACE VIEW player_stats AS SELECT * FROM player_stats_for();

-- Sessions: consecutive hands of one player at one table, a new session after a gap of
-- p_gap_minutes or more between two hands' start times. `ended_at` is the start of the last
-- hand (a history does not say when a hand ends).
CREATE OR REPLACE MACRO sessions_for(
    p_player := NULL, p_gap_minutes := 30,
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
WITH ph AS (
    SELECT
        *,
        coalesce(
            started_at - lag(started_at) OVER by_time >= to_minutes(p_gap_minutes::BIGINT),
            true
        ) AS opens_session
    FROM player_hands_for(
        p_player := p_player,
        p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
    )
    WINDOW by_time AS (PARTITION BY player, site, table_name ORDER BY started_at, hand_id)
), numbered AS (
    SELECT
        *,
        sum(opens_session::INTEGER) OVER (
            PARTITION BY player, site, table_name ORDER BY started_at, hand_id
            ROWS UNBOUNDED PRECEDING
        ) AS session_no
    FROM ph
)
SELECT
    player, site, any_value(room) AS room, table_name, session_no, kind, stakes, unit, currency,
    min(started_at) AS started_at,
    max(started_at) AS ended_at,
    max(started_at) - min(started_at) AS duration,
    count(*) AS hands,
    sum(net) AS net,
    sum(net_bb) AS net_bb,
    100 * sum(net_bb) / count(*) AS bb_per_100,
    round(sum(rake_paid))::BIGINT AS rake_paid,
    count(*) FILTER (WHERE vpip) AS vpip,
    count(*) FILTER (WHERE went_to_showdown) AS showdowns,
    count(*) FILTER (WHERE allin_adjusted) AS allin_hands,
    sum(ev_net) AS ev_net,
    sum(ev_net_bb) AS ev_net_bb,
    sum(luck) AS luck,
    sum(luck_bb) AS luck_bb
FROM numbered
GROUP BY player, site, table_name, session_no, kind, stakes, unit, currency;

CREATE OR REPLACE VIEW sessions AS SELECT * FROM sessions_for();

-- Findings with the context of their hand.
CREATE OR REPLACE MACRO findings_for(
    p_rule := NULL, p_severity := NULL, p_file := NULL,
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
SELECT
    v.hand_key, v.rule, v.severity, v.line, v.expected, v.actual, v.message,
    v.consequence_of_rule, v.consequence_of_line,
    h.site, h.room, h.hand_id, h.table_name, h.stakes, h.kind, h.started_at,
    h.started_at::DATE AS started_on,                          -- the UTC date
    h.file_id, h.source
FROM violations AS v
JOIN hands_for(
    p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
) AS h USING (hand_key)
WHERE (p_rule IS NULL OR v.rule = p_rule)
  AND (p_severity IS NULL OR v.severity = p_severity)
  AND (p_file IS NULL OR h.source = p_file);

CREATE OR REPLACE VIEW findings AS SELECT * FROM findings_for();

-- Findings per rule: how many, in how many hands, and that share of all (filtered) hands.
-- Violations only: a consequence of another finding counts with its cause.
CREATE OR REPLACE MACRO findings_by_rule_for(
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
WITH f AS (
    SELECT * FROM findings_for(
        p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
    )
), total AS (
    SELECT count(*) AS hands FROM hands_for(
        p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
    )
)
SELECT
    rule, severity,
    count(*) AS findings,
    count(DISTINCT hand_key) AS hands,
    any_value(total.hands) AS hands_total,
    count(DISTINCT hand_key) / any_value(total.hands) AS hands_pct
FROM f, total
WHERE f.consequence_of_rule IS NULL
GROUP BY rule, severity;

CREATE OR REPLACE VIEW findings_by_rule AS SELECT * FROM findings_by_rule_for();

-- Hands, findings and compliance per group; the group is a file, a table or a UTC date.
CREATE OR REPLACE MACRO compliance_by_for(
    p_group,
    p_from := NULL, p_to := NULL, p_kind := NULL, p_stakes := NULL, p_table := NULL,
    p_room := NULL
) AS TABLE
SELECT
    CASE p_group
        WHEN 'file' THEN source
        WHEN 'table' THEN table_name
        WHEN 'date' THEN strftime(started_at::DATE, '%Y-%m-%d')
    END AS grp,
    count(*) AS hands,
    count(*) FILTER (WHERE findings = 0) AS compliant_hands,
    count(*) FILTER (WHERE findings = 0) / count(*) AS compliant_pct,
    count(*) FILTER (WHERE errors > 0) AS hands_with_errors,
    sum(findings) AS findings,
    sum(errors) AS errors,
    sum(findings - errors) AS warnings
FROM hands_for(
    p_from := p_from, p_to := p_to, p_kind := p_kind, p_stakes := p_stakes, p_table := p_table,
        p_room := p_room
)
GROUP BY grp;

-- Every imported file, with what it brought: hands first stored from it, their findings,
-- and the hands of it that were rejected, skipped or already stored.
CREATE OR REPLACE VIEW findings_by_file AS
SELECT
    f.path AS source, f.file_id,
    coalesce(c.hands, 0) AS hands,
    coalesce(c.compliant_hands, 0) AS compliant_hands,
    c.compliant_pct,
    coalesce(c.hands_with_errors, 0) AS hands_with_errors,
    coalesce(c.findings, 0) AS findings,
    coalesce(c.errors, 0) AS errors,
    coalesce(c.warnings, 0) AS warnings,
    f.rejected, f.skipped, f.duplicates
FROM files AS f
LEFT JOIN compliance_by_for('file') AS c ON c.grp = f.path;

CREATE OR REPLACE VIEW findings_by_table AS
SELECT grp AS table_name, * EXCLUDE (grp) FROM compliance_by_for('table');

CREATE OR REPLACE VIEW findings_by_date AS
SELECT grp::DATE AS started_on, * EXCLUDE (grp) FROM compliance_by_for('date');

-- The sums of the Starting hands page (`player_starts`) and the runs of the Sessions page
-- (`player_runs`, store/summaries.py) with the person of each name, as person_days has them.
CREATE OR REPLACE MACRO person_starts(p_player := NULL) AS TABLE
SELECT * FROM person_sums('player_starts', p_player := p_player);

CREATE OR REPLACE MACRO person_runs(p_player := NULL) AS TABLE
SELECT * FROM person_sums('player_runs', p_player := p_player);
