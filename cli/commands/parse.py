"""`razz parse PATH...`: read hand histories and say what parsed, what was skipped and why.

Per file it prints the hands parsed, the hands skipped with their reasons, and every error as
`file:line: message`. `--json` writes one JSON object per hand per line to standard output
(the per-file report then goes to standard error). Exit code: 0 when every hand parsed
(skipped hands of other games or sites are fine), 1 when some hand had an error, 2 for usage
or I/O errors. The files are found, cut and read by the pipeline `razz audit` and `razz
import` share (`razz.store.ingest`), in worker processes, one per core.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from razz.text import plural, safe

if TYPE_CHECKING:
    from razz.store.ingest import Part

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="hand-history files, folders (searched recursively), globs or .zip archives",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="write one JSON object per hand per line (header and events) to standard output",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        help="worker processes (default: one per core for large inputs; 1 reads in this process)",
    )


@dataclass(slots=True)
class PieceReport:
    """What the hands of one piece of a file came to."""

    parsed: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    json_lines: list[str] = field(default_factory=list)


def parse_part(part: Part, want_json: bool) -> PieceReport:
    """Read the hands of one piece of a file (runs in a worker process)."""
    from razz.parser.events import Hand, ParseError, SkippedHand
    from razz.parser.serialize import result_to_dict
    from razz.store.ingest import check_part

    report = PieceReport()
    for result in check_part(part, audit=False).results:
        if isinstance(result, Hand):
            report.parsed += 1
        elif isinstance(result, SkippedHand):
            report.skipped[result.reason] += 1
        elif isinstance(result, ParseError):
            report.errors.append(str(result))
        if want_json:
            report.json_lines.append(json.dumps(result_to_dict(result), ensure_ascii=False))
    return report


def run(args: argparse.Namespace) -> int:
    from razz.inputs import no_hands_status
    from razz.store.ingest import cores, ordered_map, parts_of, workers_for
    from razz.store.sources import NoHands, discover

    discovery = discover(args.paths)
    status = EXIT_OK
    for problem in discovery.problems:
        print(f"razz parse: {problem}", file=sys.stderr)
        status = EXIT_USAGE
    report_to = sys.stderr if args.json else sys.stdout
    io_errors: list[str] = []
    notes: list[NoHands] = []
    executor = workers_for(args.jobs, sum(s.size for s in discovery.sources))
    totals = PieceReport()
    per_file: dict[str, PieceReport] = {}
    try:
        items = ((part, args.json) for part in parts_of(discovery, io_errors, notes))
        for part_report, path in ordered_map(executor, _work, items, 2 * cores() + 2):
            for line in part_report.json_lines:
                print(line)
            _add(per_file.setdefault(path, PieceReport()), part_report)
            _add(totals, part_report)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    for path, report in per_file.items():
        print(safe(_summary(path, report)), file=report_to)
        for error in report.errors:
            print(f"  {safe(error)}", file=report_to)
    if len(per_file) > 1:
        print(safe(_summary(f"total ({len(per_file)} files)", totals)), file=report_to)
    for error in io_errors:
        print(f"razz parse: {error}", file=sys.stderr)
    seen = totals.parsed + sum(totals.skipped.values()) + len(totals.errors)
    found = no_hands_status("razz parse", notes, seen, args.paths)
    if io_errors:
        status = EXIT_USAGE
    if status == EXIT_OK and (totals.errors or found):
        status = EXIT_FOUND
    return status


def _work(part: Part, want_json: bool) -> tuple[PieceReport, str]:
    return parse_part(part, want_json), part.source


def _add(total: PieceReport, report: PieceReport) -> None:
    total.parsed += report.parsed
    total.skipped.update(report.skipped)
    total.errors.extend(report.errors)


def _summary(label: str, report: PieceReport) -> str:
    skipped = sum(report.skipped.values())
    reasons = ", ".join(f"{reason}: {n}" for reason, n in report.skipped.most_common())
    text = f"{label}: {plural(report.parsed, 'hand')} parsed, {skipped} skipped"
    if reasons:
        text += f" ({reasons})"
    return text + f", {plural(len(report.errors), 'error')}"
