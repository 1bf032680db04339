"""`razz stats [--player NAME] [--db FILE]`: per-player statistics, sessions and findings.

Without `--player`: one line per player (and currency). With it: every statistic with its
numerator and denominator, the player's sessions, and the findings of the store by rule.
Exit status: 0, 1 when the player has no hands, 2 when the database cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from razz.text import plural, safe

EXIT_OK, EXIT_NOTHING, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--player", metavar="NAME", default=None,
                        help="one player's statistics in detail, and their sessions")
    parser.add_argument("--db", metavar="FILE", default=None,
                        help="DuckDB file to read (default: $RAZZ_DB, else razz.duckdb here)")
    parser.add_argument("--room", metavar="ROOM", default=None,
                        help="only the hands of one room (PokerStars, Winamax …)")
    parser.add_argument("--gap", type=int, default=30, metavar="MINUTES",
                        help="a pause this long between two hands starts a new session "
                        "(default 30)")
    parser.add_argument("--limit", type=int, default=50, metavar="N",
                        help="players listed without --player (default 50, most hands first)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="text tables (default) or one JSON object with every figure")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from razz.store import aliases, queries
    from razz.store import db as store_db

    db = Path(args.db) if args.db else store_db.default_db_path()
    try:
        with store_db.read_connection(
            db, on_wait=lambda message: print(message, file=sys.stderr)
        ) as con:
            room = None
            if args.room is not None:
                room = aliases.canonical_room(args.room, aliases.store_rooms(con)) or None
            filters = queries.Filters(room=room)
            overview = queries.overview(con)
            stats = queries.player_stats(
                con, args.player, filters, limit=None if args.player else args.limit
            )
            sessions = (queries.sessions(con, args.player, args.gap, filters)
                        if args.player else [])
            findings = queries.findings_by_rule(con, filters)
    except (store_db.StoreError, aliases.AliasError) as exc:
        print(f"razz stats: {exc}", file=sys.stderr)
        return EXIT_USAGE
    out = sys.stdout
    if args.player and not stats:
        where = f" at {room}" if room else ""
        print(f"razz stats: no hands of {safe(args.player)!r}{safe(where)} in {db}",
              file=sys.stderr)
        return EXIT_NOTHING
    if args.format == "json":
        report = {"db": str(db), "overview": overview, "players": stats,
                  "sessions": sessions if args.player else None, "findings": findings}
        json.dump(report, out, default=_json_value, ensure_ascii=False, indent=1)
        out.write("\n")
        return EXIT_OK
    out.write(
        f"{safe(str(db))}: {plural(overview['hands'], 'hand')}, "
        f"{plural(overview['players'], 'player')}, {plural(overview['files'], 'file')}; "
        f"{plural(overview['findings'], 'finding')}, "
        f"{overview['rejected']:,} rejected, {overview['skipped']:,} skipped\n"
        f"rooms: {safe(rooms_text(overview['rooms']))}"
        + (f"; only {safe(room)} below" if room else "") + "\n\n"
    )
    if args.player:
        for row in stats:
            out.write(player_report(row) + "\n\n")
        out.write(sessions_table(sessions, args.gap) + "\n\n")
    else:
        out.write(players_table(stats) + "\n\n")
    out.write(findings_table(findings) + "\n")
    return EXIT_OK


def _json_value(value: object) -> object:
    """Dates as ISO text, durations in seconds, DuckDB's HUGEINT sums as numbers."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


# ------------------------------------------------------------------------ formatting


def rooms_text(rooms: list[tuple[str, int]] | None) -> str:
    """The rooms of the store with their hands, most first.

    >>> rooms_text([("PokerStars", 2182), ("Winamax", 3)]), rooms_text([])
    ('PokerStars 2,182 hands, Winamax 3 hands', 'none')
    """
    return ", ".join(f"{room} {plural(hands, 'hand')}" for room, hands in rooms or ()) or "none"


def ledger(row: dict[str, Any]) -> str:
    """What a row's money is counted in.

    >>> ledger({"unit": "cent", "currency": "USD"}), ledger({"unit": "chip", "currency": None})
    ('USD', 'chips')
    """
    if row["unit"] == "cent":
        return row["currency"] or "cents"
    return "chips"


def money(amount: float | None, row: dict[str, Any]) -> str:
    """An amount in the row's unit, as a player reads it (an expectation rounded to the unit).

    >>> money(-30, {"unit": "cent", "currency": "USD"}), money(12.4, {"unit": "chip"})
    ('-$0.30', '12')
    """
    from razz.parser.amounts import CURRENCY_SYMBOLS

    if amount is None:
        return "–"
    amount = round(amount)
    if row["unit"] != "cent":
        return f"{amount:,}"
    symbol = CURRENCY_SYMBOLS.get(row.get("currency") or "", "")
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    text = f"{sign}{symbol}{whole:,}.{cents:02d}"
    return text if symbol else f"{text} {row.get('currency') or ''}".rstrip()


def rate(hits: int, chances: int) -> str:
    """A rate with what it counts.

    >>> rate(2, 3), rate(0, 0)
    ('66.7% (2/3)', '– (0/0)')
    """
    if not chances:
        return f"– ({hits}/{chances})"
    return f"{100 * hits / chances:.1f}% ({hits}/{chances})"


def factor(aggressive: int, calls: int) -> str:
    """An aggression factor: bets and raises per call.

    >>> factor(3, 2), factor(1, 0)
    ('1.50 (3/2)', '∞ (1/0)')
    """
    if not calls:
        return f"{'∞' if aggressive else '–'} ({aggressive}/{calls})"
    return f"{aggressive / calls:.2f} ({aggressive}/{calls})"


CELL_WIDTH = 32
"""Longest cell of a table: a longer name is cut with an ellipsis (`razz.text.safe`)."""


def table(headers: Sequence[str], body: Sequence[Sequence[str]], right: set[int]) -> str:
    """Columns padded to their widest cell; `right` lists the right-aligned columns. Cells
    are shown safe for a terminal and cut to `CELL_WIDTH` characters.

    >>> print(table(["player", "hands"], [[chr(27) + "[31mred" + "x" * 40, "3"]], right={1}))
    player                            hands
    --------------------------------  -----
    \\x1b[31mredxxxxxxxxxxxxxxxxxxxx…      3
    """
    body = [[safe(c, CELL_WIDTH) for c in row] for row in body]
    widths = [max([len(h), *(len(r[i]) for r in body)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *map(line, body)])


def players_table(stats: Sequence[dict[str, Any]]) -> str:
    """One line per player and currency."""
    body = [
        [
            r["player"], r["rooms"] or "", ledger(r), f"{r['hands']:,}", rate(r["vpip"], r["hands"]),
            rate(r["complete_raise"], r["hands"]), rate(r["showdowns"], r["saw_4th"]),
            rate(r["showdowns_won"], r["showdowns"]), money(r["net"], r),
            f"{r['bb_per_100']:.2f}", money(r.get("ev_net"), r), big_bets(r.get("luck_bb")),
        ]
        for r in stats
    ]
    headers = ["player", "room", "in", "hands", "VPIP", "complete/raise", "went to SD", "won at SD",
               "net", "bb/100", "all-in EV", "luck (bb)"]
    return table(headers, body, right={3, 8, 9, 10, 11}) if body else "No hands yet."


def big_bets(value: float | None) -> str:
    """Big bets with their sign, or a dash when the store has no figure.

    >>> big_bets(-1.234), big_bets(None)
    ('-1.23', '–')
    """
    return "–" if value is None else f"{value:+.2f}"


def luck_line(r: dict[str, Any]) -> str:
    """Luck in money and big bets, and over how many all-in hands.

    >>> luck_line({"luck": -250.4, "luck_bb": -12.52, "allin_hands": 3, "unit": "chip"})
    '-250 (-12.52 big bets) over 3 all-in hands'
    """
    if r.get("luck") is None:
        return "– (this store predates all-in EV: the next `razz import` into it computes it)"
    return (f"{money(r['luck'], r)} ({big_bets(r['luck_bb'])} big bets) over "
            f"{plural(r['allin_hands'], 'all-in hand')}")


def player_report(r: dict[str, Any]) -> str:
    """Every statistic of one player in one currency, with numerator and denominator."""
    lines = [
        ("rooms", safe(r["rooms"] or "")),
        ("names in the logs", safe(r["names"] or "")),
        ("hands", f"{r['hands']:,} ({r['hands_as_hero']:,} as the file's owner)"),
        ("VPIP on 3rd street", rate(r["vpip"], r["hands"])),
        ("complete / raise on 3rd", rate(r["complete_raise"], r["hands"])),
        ("bring-in posted", rate(r["bring_in_posted"], r["bring_in_hands"])),
        ("bring-in completed", rate(r["bring_in_completed"], r["bring_in_hands"])),
        ("bring-in then folded", rate(r["bring_in_folded"], r["bring_in_posted"])),
        ("fold to a completion", rate(r["folded_to_completion"], r["faced_completion"])),
        ("steal attempts", rate(r["steal_attempts"], r["hands"])),
        ("steals that won", rate(r["steal_successes"], r["steal_attempts"])),
        *[(f"saw {s} street", rate(r[f"saw_{s}"], r["hands"])) for s in ("4th", "5th", "6th")],
        ("saw 7th street (the river)", rate(r["saw_7th"], r["hands"])),
        ("went to showdown (of saw 4th)", rate(r["showdowns"], r["saw_4th"])),
        ("won at showdown", rate(r["showdowns_won"], r["showdowns"])),
        *[(f"aggression on {s}", factor(r[f"aggr_{s}"], r[f"calls_{s}"]))
          for s in ("3rd", "4th", "5th", "6th", "7th")],
        ("net", money(r["net"], r)),
        ("  with showdown", money(r["net_showdown"] or 0, r)),
        ("  without showdown", money(r["net_no_showdown"] or 0, r)),
        ("all-in EV (adjusted net)", money(r.get("ev_net"), r)),
        ("luck (net - all-in EV)", luck_line(r)),
        ("big bets won", f"{r['net_bb']:.2f}"),
        ("all-in EV in big bets", big_bets(r.get("ev_net_bb"))),
        ("big bets per 100 hands", f"{r['bb_per_100']:.2f}"),
        ("rake paid", money(r["rake_paid"], r)),
    ]
    width = max(len(k) for k, _ in lines)
    head = f"{safe(r['player'], 80)} · {ledger(r)}"
    return "\n".join([head, *(f"  {k.ljust(width)}  {v}" for k, v in lines)])


def sessions_table(sessions: Sequence[dict[str, Any]], gap: int) -> str:
    """A player's sessions, in time order."""
    body = [
        [
            f"{s['started_at']:%Y-%m-%d %H:%M}", f"{s['ended_at']:%H:%M}",
            _duration(s["duration"].total_seconds()), s["room"] or "", s["table_name"],
            s["stakes"],
            f"{s['hands']:,}", money(s["net"], s), f"{s['bb_per_100']:.2f}",
            money(s.get("ev_net"), s), money(s.get("luck"), s), big_bets(s.get("luck_bb")),
            money(s["rake_paid"], s),
        ]
        for s in sessions
    ]
    headers = ["start (UTC)", "end", "length", "room", "table", "stakes", "hands", "net", "bb/100",
               "all-in EV", "luck", "luck (bb)", "rake paid"]
    title = f"Sessions (a new one after {gap} minutes without a hand)"
    right = {2, 6, 7, 8, 9, 10, 11, 12}
    return f"{title}\n{table(headers, body, right=right)}" if body else title + ": none"


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}h{minutes % 60:02d}"


def findings_table(findings: Sequence[dict[str, Any]]) -> str:
    """Findings of the whole store by rule."""
    if not findings:
        return "Findings: none."
    body = [
        [f["rule"], f["severity"], f"{f['findings']:,}", rate(f["hands"], f["hands_total"])]
        for f in findings
    ]
    return "Findings by rule\n" + table(
        ["rule", "severity", "findings", "hands"], body, right={2, 3}
    )
