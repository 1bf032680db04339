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


def one_per_fault(findings: Iterable[Finding]) -> list[Finding]:
    """The findings in line order, each fault once: a later finding of a hand with the same
    rule, expected and actual values as an earlier one repeats the same fault (a summary that
    copies a shown hand's wrong `Lo:` text, every ante of a hand posted at one wrong amount)
    and is dropped, so that one violation gives one finding. So is a LOG-SUMMARY finding that
    states what an earlier finding of any rule states (the summary copied the wrong line), and
    an ORDER- finding on the player the previous ORDER- finding said was due (the player
    skipped by an action out of turn acting late only follows from it).

    >>> a = Finding("LOG-DESC", Severity.ERROR, "a.txt", "1", 30, "Lo: 8,6,4,3,2", "Lo: 8,6,4,3,A", "x")
    >>> b = Finding("LOG-DESC", Severity.ERROR, "a.txt", "1", 41, "Lo: 8,6,4,3,2", "Lo: 8,6,4,3,A", "y")
    >>> [f.line for f in one_per_fault([b, a])]
    [30]
    """
    seen: set[tuple[str, str, str, str | None]] = set()
    stated: set[tuple[str, str, str | None]] = set()
    due: str | None = None  # who the last ORDER- finding said should act
    out: list[Finding] = []
    for f in sorted(findings, key=lambda f: f.line):
        key = (f.rule, f.expected, f.actual, f.hand_id)
        said = (f.expected, f.actual, f.hand_id)
        order = f.rule.startswith("ORDER-")
        skipped = order and f.actual == due
        if order:
            due = f.expected
        if key in seen or (f.rule == "LOG-SUMMARY" and said in stated) or skipped:
            continue
        seen.add(key)
        stated.add(said)
        out.append(f)
    return out


class RuleViolation(ValueError):
    """Raised at the first finding when the auditor runs in strict mode."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding
