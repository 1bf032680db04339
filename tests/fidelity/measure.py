"""Audit generated cases and sort each outcome: exact, wrong severity, wrong line, wrong rule, missed.

Hands are audited the way `razz audit` does it: every file in the order given, each hand
replayed by `audit_hand`, and fed in that order to one `TableCheck` for the cross-hand checks
(stack continuity, the table's ante and bring-in), then `TableCheck.finish()`, whose
`relinked` findings replace a hand's own (those that follow from an ante the table settled
are its consequences). Cases with
several files or hands go through the `razz audit` command itself, in process, so a fix made
in the command (sorting hands by time, say) counts too.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from razz.cli import main as razz_main
from razz.parser import Hand, read_text
from razz.replay.audit import audit_hand
from razz.replay.findings import Finding
from razz.replay.tablecheck import TableCheck

from .injectors import INJECTORS, Case, Injector
from .writer import render


@dataclass(frozen=True)
class Found:
    """One finding, reduced to what the classification needs."""

    file: int  # index of the file in the case
    line: int
    rule: str
    severity: str
    message: str
    cause: str = ""  # "RULE at line N" for a consequence of another finding; "" for a violation


def audit_api(files: list[str]) -> list[Found]:
    """Findings of the texts, audited with `audit_hand` and one `TableCheck` in file order."""
    check = TableCheck()
    out: list[Found] = []
    own: dict[tuple[str, str], tuple[Finding, ...]] = {}
    names = {f"case-{k}.txt": k for k in range(len(files))}
    for k, text in enumerate(files):
        for item in read_text(text, f"case-{k}.txt"):
            if not isinstance(item, Hand):
                line = getattr(item, "line", 0)
                out.append(Found(k, line, "PARSE", "error", getattr(item, "message", "")))
                continue
            result = audit_hand(item)
            own[(item.header.source, item.header.hand_id)] = result.findings
            check.feed(item, result)
    table = check.finish()
    for key, findings in own.items():
        for f in check.relinked.get(key, findings):
            out.append(_found(names[f.source], f))
    for f in table:
        out.append(_found(names[f.source], f))
    return out


def _found(file: int, f: Finding) -> Found:
    cause = "" if f.consequence_of is None else str(f.consequence_of)
    return Found(file, f.line, f.rule, str(f.severity), f.message, cause)


def audit_cli(files: list[str], order: list[int] | None = None) -> list[Found]:
    """Findings of `razz audit --format json` on the texts written to files, listed in `order`."""
    order = list(range(len(files))) if order is None else order
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, text in enumerate(files):
            path = Path(tmp) / f"case-{k}.txt"
            path.write_text(text, encoding="utf-8")
            paths.append(path)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            razz_main(["audit", "--format", "json", *(str(paths[k]) for k in order)])
    found = []
    for raw in out.getvalue().splitlines():
        row = json.loads(raw)
        if "summary" in row:
            continue
        k = int(Path(row["file"]).stem.split("-")[1])
        cause = row.get("consequence_of")
        found.append(Found(k, row["line"], row["rule"], row["severity"], row["message"],
                           f"{cause['rule']} at line {cause['line']}" if cause else ""))
    return found


def case_texts(case: Case) -> list[str]:
    return [render(hands) for hands in case.files]


def audit_case(case: Case) -> list[Found]:
    texts = case_texts(case)
    if len(case.files) == 1 and len(case.files[0]) == 1:
        return audit_api(texts)
    return audit_cli(texts, case.order)


OUTCOMES = ("exact", "severity", "line", "rule", "missed")


@dataclass
class Outcome:
    """How the auditor answered one case."""

    outcome: str  # one of OUTCOMES
    extra_errors: int  # error findings beyond the one the violation should give
    findings: list[Found]
    instead: str = ""  # what the auditor said instead, for anything but "exact"


def classify(case: Case, found: list[Found], texts: list[str] | None = None) -> Outcome:
    """Sort the auditor's answer to a case with one violation.

    exact: the expected rule, severity and line; severity: the expected rule at the expected
    line with the other severity (or anywhere, if nothing is at the line); line: the expected
    rule and severity at another line; rule: other rules only (an error of another rule);
    missed: no error at all and no finding of the expected rule. Only violations count: a
    finding reported as the consequence of another answers nothing and is no extra error.
    Extra errors are the error findings beyond the one that answers the violation (the
    expected one, or the first error given instead).
    """
    e = case.expected
    # the violation is answered by a finding of its own, not by a consequence of another one
    same_rule = [f for f in found if f.rule in e.rules and not f.cause]
    at_line = [f for f in same_rule if f.file == e.file and f.line == e.line]
    # a consequence of another finding is not a violation of its own (issue 14 item 3)
    errors = [f for f in found if f.severity == "error" and not f.cause]
    if any(f.severity == e.severity for f in at_line):
        outcome = "exact"
        hit = next(f for f in at_line if f.severity == e.severity)
    elif at_line or any(f.severity != e.severity for f in same_rule):
        outcome = "severity"
        hit = (at_line or [f for f in same_rule if f.severity != e.severity])[0]
    elif any(f.severity == e.severity for f in same_rule):
        outcome = "line"
        hit = next(f for f in same_rule if f.severity == e.severity)
    elif errors:
        outcome, hit = "rule", None
    else:
        outcome, hit = "missed", None
    # the error that answers the violation (the expected one, or what came instead) is not extra
    answered = hit.severity == "error" if hit is not None else bool(errors)
    extra = len(errors) - (1 if answered else 0)
    return Outcome(outcome, extra, found, _instead(outcome, hit, errors, e, texts))


def _quote(texts: list[str] | None, f: Found) -> str:
    if texts is None:
        return f"line {f.line}"
    lines = texts[f.file].splitlines()
    text = lines[f.line - 1].strip() if 0 < f.line <= len(lines) else "?"
    return "at `" + re.sub(r"\$?\d+(\.\d+)?", "N", text)[:48] + "`"


def _instead(
    outcome: str, hit: Found | None, errors: list[Found], e: object, texts: list[str] | None
) -> str:
    if outcome == "exact":
        return ""
    if outcome == "severity" and hit is not None:
        return f"{hit.rule} as {hit.severity}"
    if outcome == "line" and hit is not None:
        return f"{hit.rule} {_quote(texts, hit)}"
    if outcome == "rule":
        return ", ".join(sorted({f.rule for f in errors}))
    return "no finding"


@dataclass
class Tally:
    """Outcomes of many cases of one rule (or one kind)."""

    cases: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))
    extra_errors: int = 0
    cases_with_extra: int = 0
    not_made: int = 0  # cases the injector could not build (should stay 0)
    instead: Counter[str] = field(default_factory=Counter)

    def add(self, o: Outcome) -> None:
        if o.instead:
            self.instead[o.instead] += 1
        self.cases += 1
        self.counts[o.outcome] += 1
        self.extra_errors += o.extra_errors
        self.cases_with_extra += o.extra_errors > 0

    def share(self, outcome: str) -> float:
        return self.counts[outcome] / self.cases if self.cases else 0.0


def case_rng(injector: Injector, k: int, seed: int = 14) -> random.Random:
    """A deterministic random source per injector kind and case number."""
    return random.Random(f"{seed}:{injector.rule}:{injector.kind}:{k}")


def run_injector(
    injector: Injector, cases: int, seed: int = 14
) -> tuple[Tally, list[tuple[Case, Outcome]]]:
    """Build and audit `cases` cases of one injector."""
    tally = Tally()
    detail = []
    for k in range(cases):
        case = injector.build(case_rng(injector, k, seed))
        if case is None:
            tally.not_made += 1
            continue
        outcome = classify(case, audit_case(case), case_texts(case))
        tally.add(outcome)
        detail.append((case, outcome))
    return tally, detail


def run_rule(rule: str, cases_per_rule: int, seed: int = 14) -> tuple[Tally, dict[str, Tally]]:
    """Cases of every kind of one rule, split evenly between its kinds."""
    kinds = [i for i in INJECTORS if i.rule == rule]
    total = Tally()
    per_kind = {}
    for n, injector in enumerate(kinds):
        share = cases_per_rule // len(kinds) + (1 if n < cases_per_rule % len(kinds) else 0)
        tally, detail = run_injector(injector, share, seed)
        per_kind[injector.kind] = tally
        for _, outcome in detail:
            total.add(outcome)
        total.not_made += tally.not_made
    return total, per_kind


def rules() -> list[str]:
    seen: list[str] = []
    for i in INJECTORS:
        if i.rule not in seen:
            seen.append(i.rule)
    return seen


def legal_errors(hands: Iterable[list[str]]) -> list[Found]:
    """Error findings on legal tables (each a list of texts: one file per table)."""
    out = []
    for files in hands:
        out += [f for f in audit_api(files) if f.severity == "error"]
    return out
