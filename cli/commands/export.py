"""`razz export --format phh [--out DIR] PATH...|--db FILE`: hands of any room, as PHH.

Every Razz hand read (from files, folders, globs, archives, or the store's hands) is replayed
for its finishing stacks and written as PHH: one `.phh` file per hand in `--out DIR`
(named `SITE-HANDID.phh`), or without `--out` one `.phhs` text on standard output. What was
written, skipped and why, and every error go to standard error. Exit code: 0 when every hand
was written (hands of other games are skipped, not errors), 1 when some hand could not be
read or written, 2 for usage or I/O errors.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from razz.parser.events import Hand
    from razz.replay.results import HandResult
    from razz.store.ingest import Part

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="hand-history files, folders (searched recursively), globs or .zip archives",
    )
    parser.add_argument("--db", metavar="FILE", help="export the hands of this DuckDB store")
    parser.add_argument(
        "--format", choices=("phh",), default="phh", help="the format written (PHH, TOML)"
    )
    parser.add_argument(
        "--out", metavar="DIR", help="write one .phh file per hand here (default: .phhs on stdout)"
    )
    parser.add_argument("-j", "--jobs", type=int, default=0, help="worker processes")


@dataclass(slots=True)
class Exported:
    """What the hands of one piece came to: (file name, PHH fields) per hand written."""

    written: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def file_name(site: str, hand_id: str) -> str:
    """A hand's file name: its site and id, safe on every file system.

    >>> file_name("PokerStars", "35874566077"), file_name("PHH", "2023-06-22-ad1/20")
    ('PokerStars-35874566077.phh', 'PHH-2023-06-22-ad1_20.phh')
    """
    return f"{_UNSAFE.sub('_', site)}-{_UNSAFE.sub('_', hand_id)}.phh"


def export_hand(hand: Hand, result: HandResult | Exception | None, into: Exported) -> None:
    """One hand's PHH fields, with the finishing stacks of its replay when it had one."""
    from razz.parser.sites.phh_writer import NotExportable, fields

    finals = None
    if result is not None and not isinstance(result, Exception):
        finals = {p.player: p.final_stack for p in result.players}
    h = hand.header
    try:
        data = fields(hand, finals)
    except (NotExportable, KeyError) as exc:
        into.errors.append(f"{h.source}:{h.first_line}: hand {h.hand_id} not written: {exc}")
        return
    into.written.append((file_name(h.site, h.hand_id), data))


def export_part(part: Part) -> Exported:
    """Read, audit and write the hands of one piece of a file (runs in a worker process)."""
    from razz.parser.events import Hand, ParseError, SkippedHand
    from razz.store.ingest import check_part

    out = Exported()
    checked = check_part(part)
    for k, item in enumerate(checked.results):
        if isinstance(item, Hand):
            export_hand(item, checked.audits.get(k), out)
        elif isinstance(item, SkippedHand):
            out.skipped[item.reason] += 1
        elif isinstance(item, ParseError):
            out.errors.append(str(item))
    return out


def _from_store(db: Path) -> Iterator[Exported]:
    """The store's hands, read again from their text by their site, replayed and written."""
    from razz.parser import sites
    from razz.parser.events import Hand, ParseError
    from razz.parser.sites.base import RawHand
    from razz.replay.audit import audit_hand
    from razz.store import db as store_db
    from razz.store.ingest import ruleset_for

    with store_db.read_connection(db, on_wait=lambda m: print(m, file=sys.stderr)) as con:
        rows = con.execute(
            "SELECT site, source, first_line, raw_text FROM hands ORDER BY started_at, hand_key"
        ).fetchall()
    readers: dict[str, Any] = {}
    for site, source, first_line, text in rows:
        out = Exported()
        try:
            reader = readers.get(site) or readers.setdefault(site, sites.by_name(site).reader())
        except KeyError:
            out.errors.append(f"{source}:{first_line}: no site {site!r} reads this hand")
            yield out
            continue
        item = reader.read(RawHand(source, first_line, text))
        if isinstance(item, Hand):
            result: Any
            try:
                result = audit_hand(item, ruleset_for(item))
            except Exception as exc:  # a bug of ours: the hand is still written
                result = exc
            export_hand(item, result, out)
        elif isinstance(item, ParseError):
            out.errors.append(str(item))
        yield out


def run(args: argparse.Namespace) -> int:
    from razz.parser.sites.phh_writer import dumps, dumps_all
    from razz.store import db as store_db
    from razz.store.ingest import cores, ordered_map, parts_of, workers_for
    from razz.store.sources import discover

    if bool(args.paths) == bool(args.db):
        print("razz export: give either PATH... or --db FILE", file=sys.stderr)
        return EXIT_USAGE
    status = EXIT_OK
    out_dir = Path(args.out) if args.out else None
    if out_dir is not None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"razz export: cannot create {out_dir}: {exc.strerror}", file=sys.stderr)
            return EXIT_USAGE
    io_errors: list[str] = []
    executor = None
    if args.db:
        pieces: Iterator[Exported] = _from_store(Path(args.db))
    else:
        discovery = discover(args.paths)
        for problem in discovery.problems:
            print(f"razz export: {problem}", file=sys.stderr)
            status = EXIT_USAGE
        executor = workers_for(args.jobs, sum(s.size for s in discovery.sources))
        items = ((part,) for part in parts_of(discovery, io_errors))
        pieces = ordered_map(executor, export_part, items, 2 * cores() + 2)
    written, skipped, errors = 0, Counter[str](), []
    stream: list[dict[str, Any]] = []
    try:
        for piece in pieces:
            for name, data in piece.written:
                if out_dir is not None:
                    (out_dir / name).write_text(dumps(data), encoding="utf-8")
                else:
                    stream.append(data)
                written += 1
            skipped.update(piece.skipped)
            errors += piece.errors
    except store_db.StoreError as exc:
        print(f"razz export: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"razz export: cannot write: {exc}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if out_dir is None and stream:
        sys.stdout.write(dumps_all(stream))
    for error in errors:
        print(f"  {error}", file=sys.stderr)
    for error in io_errors:
        print(f"razz export: {error}", file=sys.stderr)
    reasons = ", ".join(f"{reason}: {n}" for reason, n in skipped.most_common())
    where = f" to {out_dir}" if out_dir is not None else ""
    print(
        f"-- {written} hand{'' if written == 1 else 's'} written as PHH{where},"
        f" {sum(skipped.values())} skipped"
        + (f" ({reasons})" if reasons else "")
        + f", {len(errors)} errors",
        file=sys.stderr,
    )
    if io_errors:
        return EXIT_USAGE
    if status == EXIT_OK and errors:
        return EXIT_FOUND
    return status
