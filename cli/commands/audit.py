"""`razz audit PATH... [--ruleset NAME] [--format text|json|csv] [--strict]`.

Replays every Razz hand of the files (folders are searched for `*.txt`) against the rules and
reports each rule broken, like a compiler: `file:line: RULE-ID message`, then a count per
rule. Hands that cannot be read are reported as rule `PARSE`, a hand the auditor fails on
(a bug of ours) as rule `AUDIT`; hands of other games are skipped and counted. Exit status:
0 without error findings, 1 with some, 2 for usage or I/O errors.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:  # the parser and the engine are imported by `run`, not by `razz --help`
    from razz.replay.findings import Finding

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
FIELDS = ("file", "hand_id", "line", "rule", "severity", "message", "expected", "actual")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="hand-history files or folders")
    parser.add_argument(
        "--ruleset",
        default=None,
        metavar="NAME",
        help="the rules to audit against: pokerstars or cardroom (default: each hand's site's;"
        " pokerstars for PokerStars)",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "csv", "html"),
        default="text",
        help="text (file:line: RULE-ID message), json (one object per line), csv, or html "
        "(one self-contained report to attach to an audit)",
    )
    parser.add_argument("--strict", action="store_true", help="stop at the first error finding")


def expand(paths: list[str]) -> tuple[list[str], list[str]]:
    """The files to read (folders searched recursively for `*.txt`), and paths that are missing."""
    files: list[str] = []
    missing: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                files.extend(
                    os.path.join(root, name)
                    for name in sorted(names)
                    if name.lower().endswith(".txt") and not name.startswith(".")
                )
        elif os.path.isfile(path):
            files.append(path)
        else:
            missing.append(path)
    return files, missing


class _Report:
    """Writes findings as they come, and the summary at the end."""

    def __init__(self, out: TextIO, fmt: str) -> None:
        self.out = out
        self.fmt = fmt
        self.by_rule: Counter[str] = Counter()
        self.by_severity: Counter[str] = Counter()
        self.hands = self.skipped = self.parse_errors = 0
        self._csv = csv.writer(out) if fmt == "csv" else None
        self._html: list[tuple[object, ...]] = []
        self.scope: tuple[tuple[str, str], ...] = ()  # what the HTML report says it read
        if self._csv is not None:
            self._csv.writerow(FIELDS)

    def finding(self, f: Finding) -> None:
        self.by_rule[f.rule] += 1
        self.by_severity[str(f.severity)] += 1
        row = (
            f.source,
            f.hand_id,
            f.line,
            f.rule,
            str(f.severity),
            f.message,
            f.expected,
            f.actual,
        )
        if self.fmt == "html":  # the report is written whole, at the end
            self._html.append(row)
        elif self.fmt == "json":
            self.out.write(json.dumps(dict(zip(FIELDS, row, strict=True)), ensure_ascii=False))
            self.out.write("\n")
        elif self._csv is not None:
            self._csv.writerow(row)
        else:
            tag = "" if str(f.severity) == "error" else f" ({f.severity})"
            self.out.write(f"{f.source}:{f.line}: {f.rule}{tag} {f.message}\n")

    @property
    def errors(self) -> int:
        return self.by_severity["error"]

    def summary(self, err: TextIO) -> None:
        data = {
            "hands_audited": self.hands,
            "hands_skipped": self.skipped,
            "parse_errors": self.parse_errors,
            "errors": self.by_severity["error"],
            "warnings": self.by_severity["warning"],
            "findings": dict(sorted(self.by_rule.items())),
        }
        if self.fmt == "json":
            self.out.write(json.dumps({"summary": data}) + "\n")
            return
        if self.fmt == "html":
            from razz import audit_report

            rows = audit_report.findings_from_rows(dict(zip(FIELDS, r, strict=True))
                                                   for r in self._html)
            self.out.write(audit_report.render(rows, audit_report.ReportSummary(
                hands=self.hands, skipped=self.skipped, unreadable=self.parse_errors,
                scope=self.scope)))
        target = self.out if self.fmt == "text" else err
        total = sum(self.by_rule.values())
        target.write(
            f"-- {self.hands} hands audited, {self.skipped} skipped (not Razz),"
            f" {self.parse_errors} unreadable; {total} findings"
            f" ({data['errors']} errors, {data['warnings']} warnings)\n"
        )
        for rule, count in sorted(self.by_rule.items(), key=lambda kv: (-kv[1], kv[0])):
            target.write(f"   {count:6d}  {rule}\n")


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
        expected=", ".join(error.expected) or "a line PokerStars writes",
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


def _audit_files(args: argparse.Namespace, files: list[str], report: _Report) -> Iterator[str]:
    """Audit every hand, feeding the report; yields I/O problems as messages."""
    from razz.parser import Hand, ParseError, SkippedHand, read_path
    from razz.replay.audit import audit_hand
    from razz.replay.findings import RuleViolation, Severity
    from razz.replay.tablecheck import TableCheck
    from razz.store.ingest import ruleset_for

    tables = TableCheck()
    for path in files:
        try:
            for item in read_path(path):
                if isinstance(item, SkippedHand):
                    report.skipped += 1
                elif isinstance(item, ParseError):
                    report.parse_errors += 1
                    report.finding(_parse_finding(item))
                    if args.strict:
                        raise _Stop
                elif isinstance(item, Hand):
                    report.hands += 1
                    try:
                        ruleset = ruleset_for(item, args.ruleset)
                        result = audit_hand(item, ruleset, strict=args.strict)
                    except RuleViolation as violation:
                        report.finding(violation.finding)
                        raise _Stop from None
                    except Exception as exc:  # a bug in the auditor must not stop the report
                        report.finding(_audit_failure(item, exc))
                        if args.strict:
                            raise _Stop from None
                        continue
                    for f in (*result.findings, *tables.feed(item, result)):
                        report.finding(f)
                        if args.strict and f.severity is Severity.ERROR:
                            raise _Stop
        except OSError as exc:
            yield f"{path}: {exc.strerror or exc}"
    for f in tables.finish():
        report.finding(f)


class _Stop(Exception):
    """Strict mode met its first error finding."""


def run(args: argparse.Namespace) -> int:
    try:
        from razz.replay.ruleset import get_ruleset

        if args.ruleset is not None:
            get_ruleset(args.ruleset)
    except KeyError as exc:
        print(f"razz audit: {exc.args[0]}", file=sys.stderr)
        return EXIT_USAGE
    files, missing = expand(args.paths)
    for path in missing:
        print(f"razz audit: {path}: no such file or folder", file=sys.stderr)
    if missing:
        return EXIT_USAGE
    report = _Report(sys.stdout, args.format)
    report.scope = (("Read", " ".join(args.paths)), ("Ruleset", args.ruleset))
    problems: list[str] = []
    with contextlib.suppress(_Stop):
        problems.extend(_audit_files(args, files, report))
    report.summary(sys.stderr)
    for problem in problems:
        print(f"razz audit: {problem}", file=sys.stderr)
    if problems:
        return EXIT_USAGE
    return EXIT_FOUND if report.errors else EXIT_OK
