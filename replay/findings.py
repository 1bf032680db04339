"""What the auditor reports: one `Finding` per rule a hand breaks.

>>> f = Finding(rule="BRINGIN-WHO", severity=Severity.ERROR, source="a.txt", hand_id="1",
...             line=19, expected="kobreli", actual="SilkZone",
...             message="The highest door card (kobreli, Qc) must bring in, not SilkZone.")
>>> str(f)
'a.txt:19: BRINGIN-WHO The highest door card (kobreli, Qc) must bring in, not SilkZone.'
"""

from __future__ import annotations

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


class RuleViolation(ValueError):
    """Raised at the first finding when the auditor runs in strict mode."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(str(finding))
        self.finding = finding
