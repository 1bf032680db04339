"""What the auditor reports: one `Finding` per rule a hand breaks.

>>> f = Finding(rule="BRINGIN-WHO", severity=Severity.ERROR, source="a.txt", hand_id="1",
...             line=19, expected="kobreli", actual="SilkZone",
...             message="The highest door card (kobreli, Qc) must bring in, not SilkZone.")
>>> str(f)
'a.txt:19: BRINGIN-WHO The highest door card (kobreli, Qc) must bring in, not SilkZone.'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Cause:
    """The finding another one follows from: its rule and the line it is at (same hand).

    >>> str(Cause("ACT-CALL", 29))
    'ACT-CALL at line 29'
    """

    rule: str
    line: int

    def __str__(self) -> str:
        return f"{self.rule} at line {self.line}"


class Severity(StrEnum):
    ERROR = "error"  # the log breaks a rule of Razz or is inconsistent with itself
    WARNING = "warning"  # the point is a room option, or the evidence is indirect


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule broken by a hand, with the line that breaks it."""

    rule: str  # an ID of RAZZ_RULES.md, e.g. "ORDER-LATER"; "PARSE" for unreadable hands
    severity: Severity
    source: str  # file
    hand_id: str | None
    line: int
    expected: str
    actual: str
    message: str  # one sentence a player understands
    # The earlier finding of the same hand that this one only follows from (a consequence is
    # not a violation of its own: the summary counts it apart); None for a violation.
    consequence_of: Cause | None = None

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.rule} {self.message}"


def one_per_fault(findings: Iterable[Finding], summary_line: int = 0) -> list[Finding]:
    """The findings in line order, each fault once.

    A finding on a summary line (at or after `summary_line`) that states the same expected
    and actual values as an earlier finding of the body only repeats it: the summary copied
    the wrong line (a shown hand's wrong `Lo:` text, a changed card). An ORDER- finding on
    the player the previous ORDER- finding said was due only follows from it: the player
    skipped by an action out of turn acts late. Both are dropped, so that one violation
    gives one finding.

    >>> a = Finding("LOG-DESC", Severity.ERROR, "a.txt", "1", 30, "Lo: 8,6,4,3,2", "Lo: 8,6,4,3,A", "x")
    >>> b = Finding("LOG-DESC", Severity.ERROR, "a.txt", "1", 41, "Lo: 8,6,4,3,2", "Lo: 8,6,4,3,A", "y")
    >>> [f.line for f in one_per_fault([b, a], summary_line=38)]
    [30]
    """
    stated: set[tuple[str, str]] = set()
    due: str | None = None  # who the last ORDER- finding said should act
    out: list[Finding] = []
    for f in sorted(findings, key=lambda f: f.line):
        said = (f.expected, f.actual)
        copied = 0 < summary_line <= f.line and said in stated
        order = f.rule.startswith("ORDER-")
        skipped = order and f.actual == due
        if order:
            due = f.expected
        if copied or skipped:
            continue
        if not (0 < summary_line <= f.line):
            stated.add(said)
        out.append(f)
    return out


def under_causes(findings: Iterable[Finding]) -> list[Finding]:
    """The findings in the order a report lists them: each violation, then the findings that
    are its consequences (in their order), then the next violation.

    >>> cause = Finding("ACT-CALL", Severity.ERROR, "a.txt", "1", 11, "$0.02", "$0.01", "x")
    >>> late = Finding("POT-RAKE", Severity.ERROR, "a.txt", "1", 19, "$0.05", "$0.06", "y",
    ...                Cause("ACT-CALL", 11))
    >>> other = Finding("LOG-DESC", Severity.ERROR, "a.txt", "1", 15, "Lo", "Lo'", "z")
    >>> [f.line for f in under_causes([cause, other, late])]
    [11, 19, 15]
    """
    items = list(findings)
    roots = {(f.hand_id, f.line, f.rule) for f in items if f.consequence_of is None}
    following: dict[tuple[str | None, int, str], list[Finding]] = {}
    out: list[Finding] = []
    for f in items:
        cause = f.consequence_of
        if cause is not None and (f.hand_id, cause.line, cause.rule) in roots:
            following.setdefault((f.hand_id, cause.line, cause.rule), []).append(f)
    for f in items:
        cause = f.consequence_of
        if cause is not None and (f.hand_id, cause.line, cause.rule) in roots:
            continue  # listed under its cause
        out.append(f)
        out.extend(following.pop((f.hand_id, f.line, f.rule), ()))
    return out


class RuleViolation(ValueError):
    """Raised at the first finding when the auditor runs in strict mode."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding
