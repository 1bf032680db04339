"""The rule catalog is RAZZ_RULES.md as data: same IDs, sections and texts, plus `PARSE`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from razz.replay.rules import PARSE_RULE, RULES, RULES_BY_ID, RuleId, rule

RULES_MD = Path(__file__).parents[2] / "shared" / "docs" / "RAZZ_RULES.md"
ROW = re.compile(r"^\| ([A-Z0-9-]+) \| (.*) \|$")


def _document_rules() -> list[tuple[str, str, str]]:
    if not RULES_MD.exists():
        pytest.skip("../shared/docs/RAZZ_RULES.md is not beside the checkout")
    rows, section = [], ""
    for line in RULES_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        match = ROW.match(line)
        if match and match.group(1) != "ID":
            rows.append((match.group(1), section, match.group(2)))
    return rows


def test_the_catalog_has_the_ids_sections_and_texts_of_the_document_in_order() -> None:
    assert [(r.id.value, r.section, r.text) for r in RULES] == _document_rules()


def test_every_rule_id_is_a_member_of_the_enum_and_parse_is_the_only_extra() -> None:
    assert {r.id for r in RULES} | {RuleId.PARSE} == set(RuleId)
    assert PARSE_RULE.id is RuleId.PARSE and "PARSE" in RULES_BY_ID
    assert len(RULES) == len({r.id for r in RULES})


def test_a_rule_is_found_by_its_id_text() -> None:
    assert rule("BRINGIN-SUIT").section == "Who acts, and when"
    assert "**" not in rule("ORDER-LATER").plain and "`" not in rule("HAND-COMPARE").plain
    with pytest.raises(KeyError):
        rule("NO-SUCH-RULE")
