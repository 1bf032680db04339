"""The dashboard's Deal fairness page, run with Streamlit's AppTest on a store of biased deals
and a hand that repeats a card: the same verdicts as `razz fairness --db`, with the caveats."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from razz.analysis.fairness_bias import simulate_biased
from razz.cli import main
from razz.dashboard import data
from razz.simulate.simulator import write_files
from razz.store.importer import Settings, import_paths

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "dashboard" / "app.py"
REPEATED = ROOT / "sample_histories" / "handwritten-violations" / "DEAL-UNIQUE-card-dealt-twice.txt"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fairness-page")
    write_files(simulate_biased(250, seed=9, boost=2.0), folder / "logs")
    db = folder / "razz.duckdb"
    import_paths([str(folder / "logs"), str(REPEATED)], db, settings=Settings(workers=0))
    return db


@pytest.fixture
def page(store: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(data.DB_ENV, str(store))
    monkeypatch.delenv(data.ALLOW_IMPORT_ENV, raising=False)
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page("views/fairness.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _cli_json(store: Path) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["fairness", "--db", str(store), "--format", "json"])
    return json.loads(out.getvalue())


def test_the_page_gives_the_same_verdicts_as_the_command(page: AppTest, store: Path) -> None:
    expected = _cli_json(store)
    summary = next(df.value for df in page.dataframe if "Verdict" in df.value.columns)
    verdicts = dict(zip(summary["Test"], summary["Verdict"], strict=True))
    for test in expected["tests"]:
        assert verdicts[test["title"]] == test["verdict"], test["id"]
    assert verdicts["Door cards by rank"] == "alarm"
    assert verdicts["Hands that repeat a card"] == "alarm"
    assert page.error and f"{expected['alarms']} alarm(s)" in page.error[0].value


def test_the_page_says_what_the_tests_cannot_show(page: AppTest) -> None:
    texts = " ".join(m.value for m in page.markdown)
    assert "**Cannot show:**" in texts and "**Could detect**" in texts
    assert "not proof of a rigged deal" in texts  # the caveats, in plain words
    assert "Counted, not tested" in [h.value for h in page.subheader]


def test_the_page_links_the_hand_that_repeats_a_card_to_the_replayer(page: AppTest) -> None:
    repeated = next(df.value for df in page.dataframe if "Cards twice" in df.value.columns)
    assert list(repeated["Cards twice"]) == ["Jh"]
    assert repeated["Hand"][0] == "replayer?hand=PokerStars%3A250111000102&line=1"


def test_a_stricter_correction_and_a_filter_rerun_the_report(page: AppTest) -> None:
    page.selectbox(key="fair_correction").set_value("bonferroni").run()
    assert not page.exception
    assert any("Bonferroni" in e.value for e in page.error)
    page.selectbox(key="fair_table").set_value(page.selectbox(key="fair_table").options[1]).run()
    assert not page.exception
    hands = next(m for m in page.metric if m.label == "Hands")
    assert 0 < int(hands.value.replace(",", "")) < 251
