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


class RuleViolation(ValueError):
    """Raised at the first finding when the auditor runs in strict mode."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding
