"""`razz alias add|list|remove`: names that are one person, across rooms.

    razz alias add NAME --as PERSON [--room ROOM] [--db FILE]
    razz alias list [--db FILE]
    razz alias remove NAME [--room ROOM] [--db FILE]

A player who played as `Bob_PS` at PokerStars and as `bob33` at Winamax is one person: with
`razz alias add Bob_PS --as Bob --room PokerStars` and `razz alias add bob33 --as Bob`
(every room), `razz stats`, the dashboard's statistics, sessions and player picker show
`Bob`. The hands themselves, the replayer and the audit keep the names as the logs write them.
Exit status: 0, 1 when `remove` finds no such alias, 2 for usage or database errors.
"""

from __future__ import annotations

import argparse
import sys

from razz.text import safe

EXIT_OK, EXIT_NOTHING, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    db_help = "DuckDB file (default: $RAZZ_DB, else razz.duckdb here)"
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True,
                                parser_class=type(parser))
    add = sub.add_parser("add", help="make a player name stand for a person",
                         description="make a player name stand for a person")
    add.add_argument("name", metavar="NAME", help="the player name as the logs write it")
    add.add_argument("--as", dest="person", metavar="PERSON", required=True,
                     help="the person shown instead")
    add.add_argument("--room", metavar="ROOM", default=None,
                     help="only the hands of this room (default: every room)")
    add.add_argument("--db", metavar="FILE", default=None, help=db_help)
    listed = sub.add_parser("list", help="print every alias, by person",
                            description="print every alias, by person")
    listed.add_argument("--db", metavar="FILE", default=None, help=db_help)
    remove = sub.add_parser("remove", help="let a player name stand for itself again",
                            description="let a player name stand for itself again")
    remove.add_argument("name", metavar="NAME", help="the player name")
    remove.add_argument("--room", metavar="ROOM", default=None,
                        help="only its alias in this room (default: its aliases in every room)")
    remove.add_argument("--db", metavar="FILE", default=None, help=db_help)


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from razz.store import aliases
    from razz.store import db as store_db

    db = Path(args.db) if args.db else store_db.default_db_path()
    try:
        if args.action == "list":
            with store_db.read_connection(db) as con:
                return _list(aliases.listing(con))
        con = aliases.open_for_aliases(db)
        try:
            room = _room(args.room, aliases.store_rooms(con)) if args.room is not None else None
            if args.action == "add":
                replaced = aliases.add(con, args.name, args.person, room or aliases.EVERY_ROOM)
                where = f"in {room}" if room else "in every room"
                verb = "now stands" if replaced else "stands"
                print(safe(f"{args.name.strip()} {verb} for {args.person.strip()} {where}"))
                return EXIT_OK
            removed = aliases.remove(con, args.name, room)
        finally:
            con.close()
    except aliases.AliasError as exc:
        print(f"razz alias: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except store_db.StoreError as exc:
        print(f"razz alias: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if not removed:
        print(safe(f"razz alias: {args.name} has no alias"
                   + (f" in {room}" if room else "")), file=sys.stderr)
        return EXIT_NOTHING
    print(safe(f"{args.name} stands for itself again"
               + (f" in {room}" if room else "")))
    return EXIT_OK


def _room(room: str, stored: list[str]) -> str:
    from razz.store import aliases

    return aliases.canonical_room(room, stored)


def _list(found: list[dict[str, object]]) -> int:
    from razz.commands.stats import table

    if not found:
        print("No aliases: every player name stands for itself.")
        return EXIT_OK
    body = [[str(r["person"]), str(r["name"]), str(r["room"]) or "every room",
             f"{int(r['hands']):,}"] for r in found]  # type: ignore[call-overload]
    print(table(["person", "name", "room", "hands"], body, right={3}))
    return EXIT_OK
