"""The deal-fairness report as plain text, for a terminal or an auditor's file.

>>> from razz.analysis.fairness import report_from_tallies
>>> from razz.analysis.fairness_synthetic import synthetic_tallies
>>> import numpy as np
>>> text = report_text(report_from_tallies(synthetic_tallies(300, np.random.default_rng(2))))
>>> text.splitlines()[0]
'Deal-fairness report: 300 hands (site synthetic)'
"""

from __future__ import annotations

import textwrap

from razz.analysis.fairness import CORRECTIONS, FairnessReport, TestResult

WIDTH = 100
TITLE = 52  # the summary's column of test titles
LABEL = 34  # the column of categories under each test


def _p(value: float) -> str:
    """A p-value as a reader compares it with alpha: 4 decimals, or 2 digits when tiny.

    >>> _p(0.03201), _p(7.174e-10), _p(1.0)
    ('0.0320', '7.2e-10', '1.0000')
    """
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def _dof(dof: int) -> str:
    return f"{dof} degree{'s' if dof != 1 else ''} of freedom"

WHAT_IT_MEANS = (  # {rooms}: 1 / alpha
    "What this report can and cannot tell. Each test compares the cards the logs show with "
    "what a fair shuffle implies whatever the players do, and gives a p-value: how often a fair "
    "deal would look at least this far off. An alarm (adjusted p-value at most alpha) is a "
    "reason to look closer, not proof of a rigged deal: about one fair room in {rooms} gets "
    "one, and a mistake in a log (or in this report's model of what a log shows) can raise one too. No "
    "alarm is not proof of a fair deal: a bias smaller than the 'could detect' line of a test "
    "goes unseen at this sample size, and a bias none of these tests looks at (which player "
    "gets which hole cards, the order of later cards among players who stay in) goes unseen "
    "at any size. Collusion and bots do not change the deal: this report cannot see them."
)


def report_text(report: FairnessReport) -> str:
    """The whole report: summary table, each test in detail, repeated cards, caveats."""
    lines = [_title(report), ""]
    lines += _wrap(
        f"{len(report.tested)} tests run, p-values adjusted by {CORRECTIONS[report.correction]} "
        f"for testing {len(report.tested)} things at once; alarm when the adjusted p-value is "
        f"at most alpha = {report.alpha:g}.")
    verdict = (f"VERDICT: {report.alarms} alarm(s); read the tests marked ALARM below."
               if report.alarms else "VERDICT: no alarm.")
    untested = len(report.tests) - len(report.tested)
    if untested:
        verdict += (f" {untested} of {len(report.tests)} tests not run: too few hands for "
                    "them, so they say nothing either way.")
    lines += ["", verdict, ""]
    lines.append(f"{'test':<{TITLE}} {'n':>9} {'p-value':>9} {'adjusted':>9}  verdict")
    for test in report.tests:
        p = _p(test.fit.p_value) if test.fit else "–"
        q = _p(test.adjusted) if test.adjusted is not None else "–"
        lines.append(f"{test.title[:TITLE]:<{TITLE}} {test.n:>9,} {p:>9} {q:>9}  "
                     f"{_verdict(test)}")
    lines.append(f"{'Hands that repeat a card':<{TITLE}} {report.hands:>9,} {'':>9} {'':>9}  "
                 f"{'ALARM' if report.duplicate_hands else 'no alarm'}"
                 f" ({report.duplicate_hands:,} hands)")
    lines.append("")
    for test in report.tests:
        lines += _test_detail(test)
    lines += _repeated(report)
    lines += _untested(report)
    lines += _wrap(WHAT_IT_MEANS.format(rooms=f"{round(1 / report.alpha):,}"))
    return "\n".join(lines) + "\n"


def _title(report: FairnessReport) -> str:
    parts = [f"Deal-fairness report: {report.hands:,} hands"]
    if report.sites:
        parts.append(f"(site {', '.join(report.sites)})")
    if report.first_day is not None:
        parts.append(f"from {report.first_day} to {report.last_day}")
    filters = {k: v for k, v in report.scope.to_json().items() if v is not None}
    if filters:
        parts.append("; " + ", ".join(f"{k} {v}" for k, v in filters.items()))
    return " ".join(parts)


def _verdict(test: TestResult) -> str:
    return {"alarm": "ALARM", "no alarm": "no alarm", "not tested": "not tested"}[test.verdict]


def _test_detail(test: TestResult) -> list[str]:
    lines = [f"== {test.title}: {_verdict(test)}"]
    lines += _wrap(f"Fair deal: {test.hypothesis}", "   ")
    if test.fit is None:
        lines += _wrap(f"Not tested: {test.why_not}.", "   ")
    else:
        fit = test.fit
        lines += _wrap(
            f"{fit.test} = {fit.statistic:.2f} on {_dof(fit.dof)}, {test.n:,} {test.unit}: "
            f"p = {_p(fit.p_value)}, adjusted {_p(test.adjusted or 1.0)}."
            + (f" {test.note}." if test.note else ""), "   ")
        if test.detectable:
            lines += _wrap(f"Could detect (80% of the time at this size): {test.detectable}.",
                           "   ")
    lines += _wrap(f"Can show: {test.can_show}.", "   ")
    lines += _wrap(f"Cannot show: {test.cannot_show}.", "   ")
    if test.bars:
        lines.append(f"   {'':<{LABEL}} {'observed':>10} {'expected':>10} {'ratio':>7}")
        for bar in test.bars:
            ratio = f"{bar.observed / bar.expected:7.3f}" if bar.expected else f"{'–':>7}"
            lines.append(f"   {bar.label[:LABEL]:<{LABEL}} {bar.observed:>10,.0f} {bar.expected:>10,.1f}"
                         f" {ratio}")
    lines.append("")
    return lines


def _repeated(report: FairnessReport) -> list[str]:
    lines = [f"== Hands whose known cards repeat a card: {report.duplicate_hands:,}"]
    lines += _wrap("One deck holds each card once: a card seen twice in a hand is impossible in "
                   "a fair (or any single-deck) deal. It is as likely a broken or edited log as "
                   "a broken deal; the audit reports it as DEAL-UNIQUE.", "   ")
    for d in report.duplicates:
        lines.append(f"   {d.source}:{d.first_line}: hand {d.hand_key} at {d.table_name}, "
                     f"{' '.join(d.cards)} twice"
                     + ("" if d.finding else " (no DEAL-UNIQUE finding)"))
    if report.duplicate_hands > len(report.duplicates):
        lines.append(f"   … and {report.duplicate_hands - len(report.duplicates):,} more")
    lines.append("")
    if report.bring_in_findings:
        lines += _wrap(f"The audit also found {report.bring_in_findings:,} bring-in(s) by the "
                       "wrong player or suit (BRINGIN-WHO, BRINGIN-SUIT): those are the room "
                       "breaking its rules, not the deal.", "   ")
        lines.append("")
    return lines


def _untested(report: FairnessReport) -> list[str]:
    lines: list[str] = []
    for u in report.untested:
        mean = f"average rank {u.mean_rank:.2f} (ace 1 … king 13)" if u.mean_rank else "none"
        lines.append(f"== Not tested: {u.title}: {u.n:,} cards, {mean}")
        lines += _wrap(u.why, "   ")
        lines.append("")
    return lines


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent) or [""]
