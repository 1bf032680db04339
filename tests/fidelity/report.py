"""Print the audit fidelity figures: per rule, how injected violations come back; legal hands.

Run from the repository root, either way:

    .venv/bin/python -m tests.fidelity.report [--cases N] [--legal N] [--kinds] [--seed S]
    .venv/bin/python tests/fidelity/report.py [--cases N] …

`--cases` is the number of cases per rule (split evenly between the rule's kinds), `--legal`
the number of legal tables (one to four hands each) checked for error findings, `--kinds`
adds a line per kind under each rule. Everything is seeded: the same arguments print the
same figures. Columns: exact (error, right rule, right line), wrong severity (the rule at the
line, as a warning; for the SHOW-ORDER after-checks kind, as an error), wrong line, wrong rule
(errors of other rules only, PARSE included), missed (no error, no finding of the rule), extra
(error findings beyond the one expected, per case) and the share of cases with any.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make `fidelity` importable as a package
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "fidelity"

from .generate import coverage, legal_tables
from .measure import Tally, audit_api, rules, run_rule
from .writer import hand_lines, render

HEAD = (
    f"{'rule':<20} {'cases':>5} {'exact':>6} {'w.sev':>6} {'w.line':>6} {'w.rule':>6}"
    f" {'missed':>6} {'extra':>6} {'w/extra':>7}"
)


def row(name: str, t: Tally) -> str:
    pct = lambda k: f"{100 * t.share(k):5.1f}%"  # noqa: E731
    extra = t.extra_errors / t.cases if t.cases else 0.0
    with_extra = t.cases_with_extra / t.cases if t.cases else 0.0
    return (
        f"{name:<20} {t.cases:>5} {pct('exact')} {pct('severity')} {pct('line')} {pct('rule')}"
        f" {pct('missed')} {extra:6.2f} {100 * with_extra:6.1f}%"
        + (f"  ({t.not_made} not built)" if t.not_made else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200, help="cases per rule (default 200)")
    parser.add_argument("--legal", type=int, default=1000, help="legal tables (default 1000)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--kinds", action="store_true", help="one line per kind as well")
    args = parser.parse_args(argv)
    started = time.monotonic()
    print(HEAD)
    total = Tally()
    for rule in rules():
        tally, kinds = run_rule(rule, args.cases, args.seed)
        print(row(rule, tally))
        if args.kinds:
            for kind, t in kinds.items():
                print(row(f"  {kind}", t))
                for what, n in t.instead.most_common(2):
                    print(f"      instead ({n}): {what}")
        for outcome, n in tally.counts.items():
            total.counts[outcome] += n
        total.cases += tally.cases
        total.extra_errors += tally.extra_errors
        total.cases_with_extra += tally.cases_with_extra
        total.not_made += tally.not_made
    print(row("all rules", total))
    tables = legal_tables(args.seed, args.legal)
    errors = warnings = 0
    by_rule: dict[str, int] = {}
    for table in tables:
        for f in audit_api([render([hand_lines(p) for p in table])]):
            if f.severity == "error":
                errors += 1
            else:
                warnings += 1
            by_rule[f"{f.rule} ({f.severity})"] = by_rule.get(f"{f.rule} ({f.severity})", 0) + 1
    cover = coverage(tables)
    print(
        f"\nlegal hands: {cover['hands']} in {len(tables)} tables; {errors} error findings"
        f" (false errors), {warnings} warnings"
        + (": " + ", ".join(f"{k} {v}" for k, v in sorted(by_rule.items())) if by_rule else "")
    )
    print("covered: " + ", ".join(f"{k} {v}" for k, v in cover.items() if k != "hands"))
    print(f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
