"""Audit fidelity harness (issue 14): legal hands and one-violation hands the auditor never saw.

* `cards`, `game`, `generate`: an independent Razz dealer and betting engine written from
  RAZZ_RULES.md (no code of the shipped simulator or auditor), seeded;
* `writer`: the hands as PokerStars text, each line tagged with the event it came from;
* `injectors`: for each way a log can break a rule, a case with exactly that violation and the
  finding a faithful auditor gives (rule, severity, line);
* `measure`: audits cases as `razz audit` does and sorts the answers;
* `report`: prints the per-rule figures (`python -m tests.fidelity.report`).

Tests import it as `fidelity` (tests/ on `sys.path`); the report runs as `tests.fidelity`.
"""
