"""`razz audit PATH... [--ruleset NAME] [--format text|json|csv|html] [--strict] [-j N]`.

Replays every Razz hand of the files against the rules and reports each rule broken, like a
compiler: `file:line: RULE-ID message`, then a count per rule. The files are found, cut, read,
audited and checked across hands by the pipeline `razz parse` and `razz import` share
(`razz.store.ingest`: folders, globs and zip archives of every site's files; worker processes,
one per core), so `razz audit` reports what an import stores. The checks across hands (stack
continuity, a table's ante and bring-in) run once over every hand read, in time order per
table, so the order of the files and of their hands does not matter; the findings of a hand
that may only follow from its ante (which the table may settle as wrong) are reported after
them, with the table's findings on that hand. Hands that cannot be
read are reported as rule `PARSE`, a hand the auditor fails on (a bug of ours) as rule
`AUDIT`; hands of other games or sites are skipped and counted with their reasons. Each hand
is audited against its site's rules unless `--ruleset` names others. Exit status: 0 without
error findings, 1 with some, 2 for usage or I/O errors.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

from razz.text import plural, safe

if TYPE_CHECKING:  # the parser and the engine are imported by `run`, not by `razz --help`
    from razz.replay.findings import Finding
    from razz.replay.tablecheck import HandFacts, TableCheck
    from razz.store.ingest import Part

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
FIELDS = (
    "file", "hand_id", "line", "rule", "severity", "message", "expected", "actual", "room",
    "consequence_of",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="hand-history files, folders (searched recursively), globs or .zip archives",
    )
    parser.add_argument(
        "--ruleset",
        default=None,
        metavar="NAME",
        help="the rules to audit against: pokerstars, cardroom, fulltilt, winamax or kingsclub"
        " (default: each hand's site's)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "csv", "html"),
        default="text",
        help="text (file:line: RULE-ID message), json (one object per line), csv, or html "
        "(one self-contained report to attach to an audit)",
    )
    parser.add_argument("--strict", action="store_true", help="stop at the first error finding")
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=0,
        help="worker processes (default: one per core for large inputs; 1 audits in this process)",
    )


@dataclass(frozen=True, slots=True)
class Entry:
    """One hand of a piece, as the report sees it."""

    kind: str  # "hand" (audited), "failed" (the auditor failed), "unreadable", "skipped"
    findings: tuple[Finding, ...] = ()
    reason: str = ""  # why a hand was skipped
    room: str = ""  # the room of the hand (as the store names it); "" when unknown
    source: str = ""  # the file of the hand
    hand_id: str = ""
    # Its findings wait for the cross-hand checks: an error of its own may only follow from
    # its ante, which the other hands of its table may settle as wrong.
    held: bool = False


@dataclass(slots=True)
class AuditedPart:
    """What the hands of one piece of a file came to (built in a worker process)."""

    entries: list[Entry] = field(default_factory=list)
    late: list[Finding] = field(default_factory=list)  # cross-hand findings on earlier hands
    facts: list[HandFacts] = field(default_factory=list)  # for the cross-hand checks


def audit_part(part: Part) -> AuditedPart:
    """Read, audit and check across hands the hands of one piece (runs in a worker)."""
    from razz.parser.events import Hand, ParseError, SkippedHand
    from razz.parser.sites import title_of  # not razz.store.rows: it loads pyarrow
    from razz.store.ingest import check_part

    # The cross-hand checks run once over every piece, in the main process (`run`), so that
    # the order of the files and of the hands in them does not matter.
    checked = check_part(part, tables=False)
    out = AuditedPart(late=[f for _, f in checked.late], facts=checked.facts)
    held = {(f.source, f.hand_id) for f in checked.facts if f.retry is not None}
    for k, item in enumerate(checked.results):
        if isinstance(item, Hand):
            outcome = checked.audits[k]
            h = item.header
            room = title_of(h.site)
            if isinstance(outcome, Exception):
                out.entries.append(Entry("failed", (_audit_failure(item, outcome),), room=room,
                                         source=h.source, hand_id=h.hand_id))
            else:
                out.entries.append(Entry("hand", outcome.findings, room=room, source=h.source,
                                         hand_id=h.hand_id,
                                         held=(h.source, h.hand_id) in held))
        elif isinstance(item, SkippedHand):
            out.entries.append(Entry("skipped", reason=item.reason))
        elif isinstance(item, ParseError):
            out.entries.append(Entry("unreadable", (_parse_finding(item),),
                                     room=_room_of_text(item.text)))
    return out


def _room_of_text(text: str) -> str:
    """The room whose hands start as `text` does ("" when no room's do)."""
    from razz.parser import sites

    site = sites.recognise(text.lstrip("\ufeff").split("\n", 1)[0])
    return site.title if site is not None else ""


class _Report:
    """Writes findings as they come, and the summary at the end."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out = out
        self.fmt = fmt
        self.by_rule: Counter[str] = Counter()  # violations (consequences apart)
        self.by_severity: Counter[str] = Counter()
        self.consequences = 0  # findings that only follow from an earlier one of their hand
        self.hands = self.parse_errors = 0
        self.skipped: Counter[str] = Counter()  # hands skipped, by reason
        self.rooms: Counter[str] = Counter()  # hands audited, by room
        self.room_of_file: dict[str, str] = {}  # for findings on hands reported before
        self._csv = csv.writer(out) if fmt == "csv" else None
        self._html: list[tuple[object, ...]] = []
        self.scope: tuple[tuple[str, str], ...] = ()  # what the HTML report says it read
        if self._csv is not None:
            self._csv.writerow(FIELDS)

    def finding(self, f: Finding, room: str | None = None) -> None:
        if room is None:  # a cross-hand finding on a hand of a piece reported before
            room = self.room_of_file.get(f.source, "")
        cause = f.consequence_of
        if cause is None:
            self.by_rule[f.rule] += 1
            self.by_severity[str(f.severity)] += 1
        else:
            self.consequences += 1
        row = (
            f.source,
            f.hand_id,
            f.line,
            f.rule,
            str(f.severity),
            f.message,
            f.expected,
            f.actual,
            room,
            cause,
        )
        if self.fmt == "html":  # the report is written whole, at the end
            self._html.append(row)
        elif self.fmt == "json":
            data: dict[str, object] = dict(zip(FIELDS, row, strict=True))
            data["consequence_of"] = (
                None if cause is None else {"rule": cause.rule, "line": cause.line}
            )
            self.out.write(json.dumps(data, ensure_ascii=False))
            self.out.write("\n")
        elif self._csv is not None:
            self._csv.writerow((*row[:-1], "" if cause is None else str(cause)))
        else:
            tag = "" if str(f.severity) == "error" else f" ({f.severity})"
            if cause is None:
                self.out.write(safe(f"{f.source}:{f.line}: {f.rule}{tag} {f.message}") + "\n")
            else:  # indented under the violation it follows from
                self.out.write(safe(
                    f"    {f.source}:{f.line}: {f.rule}{tag} {f.message}"
                    f" (follows from {cause})"
                ) + "\n")

    @property
    def errors(self) -> int:
        return self.by_severity["error"]

    def summary(self, err: TextIO) -> None:
        data = {
            "hands_audited": self.hands,
            "hands_skipped": sum(self.skipped.values()),
            "parse_errors": self.parse_errors,
            "errors": self.by_severity["error"],
            "warnings": self.by_severity["warning"],
            "consequences": self.consequences,
            "findings": dict(sorted(self.by_rule.items())),
            "rooms": dict(self.rooms.most_common()),
        }
        if self.fmt == "json":
            self.out.write(json.dumps({"summary": data}) + "\n")
            return
        if self.fmt == "html":
            from razz import audit_report

            rows = audit_report.findings_from_rows(
                {**dict(zip(FIELDS, r, strict=True)), "consequence_of": "" if r[-1] is None
                 else str(r[-1])} for r in self._html)
            self.out.write(audit_report.render(rows, audit_report.ReportSummary(
                hands=self.hands, skipped=sum(self.skipped.values()), unreadable=self.parse_errors,
                scope=self.scope, rooms=tuple(self.rooms.most_common()))))
        target = self.out if self.fmt == "text" else err
        total = sum(self.by_rule.values())
        reasons = ", ".join(f"{why}: {n}" for why, n in self.skipped.most_common())
        if self.rooms:  # before the summary, which stays the line before the counts by rule
            target.write(safe(self.rooms_text()) + "\n")
        target.write(safe(
            f"-- {plural(self.hands, 'hand')} audited, {data['hands_skipped']} skipped"
            f"{f' ({reasons})' if reasons else ''}, {self.parse_errors} unreadable;"
            f" {plural(total, 'finding')} ({plural(self.by_severity['error'], 'error')},"
            f" {plural(self.by_severity['warning'], 'warning')})"
            + (f" and {plural(self.consequences, 'consequence')} of them"
               if self.consequences else "")
        ) + "\n")
        for rule, count in sorted(self.by_rule.items(), key=lambda kv: (-kv[1], kv[0])):
            target.write(f"   {count:6d}  {rule}\n")

    def rooms_text(self) -> str:
        """Where the hands audited come from: `-- room: PokerStars`, or with several rooms
        `-- rooms: PokerStars 6, Winamax 2` (hands audited in each)."""
        rooms = self.rooms.most_common()
        if len(rooms) == 1:
            return f"-- room: {rooms[0][0] or 'unknown'}"
        return "-- rooms: " + ", ".join(f"{room or 'unknown'} {n:,}" for room, n in rooms)


def _parse_finding(error: object) -> Finding:
    from razz.parser.events import ParseError
    from razz.replay.findings import Finding, Severity

    assert isinstance(error, ParseError)
    return Finding(
        rule="PARSE",
        severity=Severity.ERROR,
        source=error.source,
        hand_id=error.hand_id,
        line=error.line,
        expected=", ".join(error.expected) or "a line of the hand's format",
        actual=error.line_text,
        message=f"The hand cannot be read: {error.message}",
    )


def _audit_failure(hand: object, error: Exception) -> Finding:
    """The finding for a hand the auditor failed to replay: a bug of ours, not of the log."""
    from razz.parser import Hand
    from razz.replay.findings import Finding, Severity

    assert isinstance(hand, Hand)
    return Finding(
        rule="AUDIT",
        severity=Severity.ERROR,
        source=hand.header.source,
        hand_id=hand.header.hand_id,
        line=hand.header.first_line,
        expected="a hand the auditor can replay",
        actual=f"{type(error).__name__}: {error}",
        message="The auditor failed on this hand (a bug in razz, please report it); "
        "the other hands are audited.",
    )


def run(args: argparse.Namespace) -> int:
    from razz.inputs import no_hands_status
    from razz.replay.findings import Severity
    from razz.replay.tablecheck import TableCheck
    from razz.store.ingest import cores, ordered_map, parts_of, workers_for
    from razz.store.sources import NoHands, discover

    try:
        from razz.replay.ruleset import get_ruleset

        if args.ruleset is not None:
            get_ruleset(args.ruleset)
    except KeyError as exc:
        print(f"razz audit: {exc.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    discovery = discover(args.paths)
    for problem in discovery.problems:
        print(f"razz audit: {problem}", file=sys.stderr)
    report = _Report(sys.stdout, args.format)
    ruleset = args.ruleset or "each hand's site's"
    report.scope = (("Read", " ".join(args.paths)), ("Ruleset", ruleset))
    problems: list[str] = []
    notes: list[NoHands] = []
    jobs = 1 if args.strict else args.jobs  # strict stops at once: no work ahead of the report
    executor = workers_for(jobs, sum(s.size for s in discovery.sources), args.ruleset)
    tables = TableCheck()
    held: dict[tuple[str, str], list[Entry]] = {}  # a hand id twice: both are reported
    try:
        parts = ((part,) for part in parts_of(discovery, problems, notes))
        for piece in ordered_map(executor, audit_part, parts, 2 * cores() + 2):
            if not _report_part(piece, report, args.strict, Severity.ERROR, held):
                break
            for facts in piece.facts:
                tables.add(facts)
        else:
            # stack continuity, a table's ante and bring-in: every hand read, in time order
            _report_tables(tables, held, report, args.strict, Severity.ERROR)
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    report.summary(sys.stderr)
    for problem in problems:
        print(f"razz audit: {problem}", file=sys.stderr)
    seen = report.hands + report.parse_errors + sum(report.skipped.values())
    status = no_hands_status("razz audit", notes, seen, args.paths)
    if problems or discovery.problems:
        return EXIT_USAGE
    return EXIT_FOUND if report.errors else status


def _report_tables(
    tables: TableCheck,
    held: dict[tuple[str, str], list[Entry]],
    report: _Report,
    strict: bool,
    error: object,
) -> None:
    """Report the cross-hand findings, each hand's with the findings held back of it (those
    that follow from an ante the table settled marked as its consequences), hand by hand."""
    from razz.replay.findings import under_causes
    from razz.replay.tablecheck import hand_order

    found = tables.finish()
    by_hand: dict[tuple[str, str], list[Finding]] = {k: [] for k in held}
    for f in found:
        by_hand.setdefault((f.source, f.hand_id or ""), []).append(f)
    for key in sorted(by_hand, key=hand_order):
        table = by_hand[key]
        entries: list[Entry | None] = [*held.get(key, ())] or [None]
        for entry in entries:
            own = tables.relinked.get(key, entry.findings if entry else ())
            merged = sorted((*own, *table), key=lambda f: f.line)
            table = []  # the table's findings on a hand id read twice are reported once
            for f in under_causes(merged):
                report.finding(f, entry.room if entry else None)
                if strict and f.severity is error:
                    return


def _report_part(
    piece: AuditedPart,
    report: _Report,
    strict: bool,
    error: object,
    held: dict[tuple[str, str], list[Entry]],
) -> bool:
    """Report one piece (the findings of its `held` hands wait for the cross-hand checks,
    unless strict mode stops at the first error); False once strict mode met one."""
    from razz.replay.findings import under_causes

    for f in piece.late:  # findings on hands reported with the piece before
        report.finding(f)
        if strict and f.severity is error:
            return False
    for entry in piece.entries:
        if entry.kind == "skipped":
            report.skipped[entry.reason] += 1
            continue
        if entry.room and entry.source:
            report.room_of_file[entry.source] = entry.room
        if entry.kind == "unreadable":
            report.parse_errors += 1
        else:
            report.hands += 1
            report.rooms[entry.room] += 1
        if entry.held and not strict:  # strict stops at the first error, as it comes
            held.setdefault((entry.source, entry.hand_id), []).append(entry)
            continue
        for f in under_causes(entry.findings):
            report.finding(f, entry.room)
            if strict and f.severity is error:
                return False
    return True
