"""End to end: `razz import`, then `razz dashboard --allow-import` as a user starts it, in Chromium.

Needs Debian's Chromium at /usr/bin/chromium (`apt-get install -y chromium`); Playwright's own
browser download does not work here. Screenshots of every page (the replayer in the middle of
a hand, the audit with a rule filter) go to `test-artifacts/`.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Dialog, Page, sync_playwright

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_histories"
HOSTILE = Path(__file__).resolve().parent / "data" / "dashboard" / "hostile_names.txt"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DIALOGS: list[str] = []  # alert() calls seen by the browser
PAGES = {
    "sessions": ("/", "Sessions"),
    "players": ("/players", "Player statistics"),
    "starting-hands": ("/starting-hands", "Starting hands"),
    "replayer": ("/replayer?hand=PokerStars%3A900000000002&line=74", "Hand replayer"),
    "audit": ("/audit", "Audit"),
    "audit-one-rule": ("/audit?rule=LOG-DESC", "Audit"),
    "import": ("/import", "Import hand histories"),
}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _razz(*args: str) -> list[str]:
    return [sys.executable, "-m", "razz", *args]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A dashboard started with `razz dashboard` on a store filled by `razz import`."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: .ci/run must `apt-get install -y chromium`")
        pytest.skip(f"{CHROMIUM} is not installed")
    db = tmp_path_factory.mktemp("browser") / "razz.duckdb"
    imported = subprocess.run(_razz("import", "--db", str(db), str(SAMPLES), str(HOSTILE)),
                              capture_output=True, text=True, timeout=600, check=False)
    assert imported.returncode in (0, 1), imported.stderr  # 1: some hand broke a rule
    port = _free_port()
    log = (tmp_path_factory.mktemp("browser-log") / "dashboard.log").open("w")
    process = subprocess.Popen(_razz("dashboard", "--db", str(db), "--port", str(port),
                                     "--allow-import"),
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert process.poll() is None, "the dashboard exited at start"
            assert time.monotonic() < deadline, "the dashboard did not start within 60 s"
            time.sleep(0.5)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the server and anything it started
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
        log.close()


def _record_dialog(dialog: Dialog) -> None:
    DIALOGS.append(dialog.message)
    dialog.dismiss()


@pytest.fixture(scope="module")
def browser_page(server: str) -> Iterator[Page]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1700})
        page.on("dialog", _record_dialog)
        yield page
        browser.close()


def _settle(page: Page, title: str) -> None:
    """Wait until the title is drawn, the script has finished and nothing is left to draw."""
    page.get_by_role("heading", name=title).first.wait_for(timeout=60_000)
    page.wait_for_function(
        """() => {
            const app = document.querySelector('[data-testid="stApp"]');
            return app && app.getAttribute('data-test-script-state') === 'notRunning'
                && !document.querySelector('[data-testid="stSkeleton"], [data-stale="true"]');
        }""",
        timeout=90_000,
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)  # charts and table canvases paint after the last message


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_loads_without_an_error_and_is_screenshotted(
    server: str, browser_page: Page, name: str
) -> None:
    path, title = PAGES[name]
    page = browser_page
    page.goto(server + path)
    _settle(page, title)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{name}.png"), full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.locator('[data-testid="stDataFrame"], [data-testid="stFileUploader"]').count() > 0


def test_replayer_opens_a_hand_from_the_hand_search(server: str, browser_page: Page) -> None:
    page = browser_page
    page.goto(server + "/replayer")
    _settle(page, "Hand replayer")
    page.get_by_label("Hand number").fill("900000000002")
    page.get_by_label("Hand number").press("Enter")
    link = page.locator('[data-testid="stDataFrame"]').first
    link.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    # Select the only row found: its checkbox is the grid's first column.
    box = link.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + 18, box["y"] + 54)
    page.wait_for_url("**/replayer?hand=PokerStars%3A900000000002*", timeout=30_000)
    page.locator("h3", has_text="hand #900000000002").first.wait_for(timeout=60_000)
    _settle(page, "Hand replayer")
    history = page.locator(".rzt .history").inner_text()
    assert "Zoë the hero: shows [8c 4d 6s 7d 3c Ks 2h]" in history
    page.screenshot(path=str(ARTIFACTS / "dashboard-replayer-opened.png"), full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_replayer_steps_with_next_and_draws_four_colours(server: str, browser_page: Page
                                                         ) -> None:
    page = browser_page
    page.goto(server + "/replayer?hand=PokerStars%3A900000000002&line=74")
    _settle(page, "Hand replayer")
    now = page.locator(".rzt .now")
    assert "Line 74 · 5th street" in now.inner_text()
    page.get_by_role("button", name="Next").click()
    page.wait_for_function(
        "() => document.querySelector('.rzt .now')?.innerText.includes('Line 75')",
        timeout=30_000)
    _settle(page, "Hand replayer")
    assert "6th street" in page.locator(".rzt .now").inner_text()
    colours = page.evaluate(
        """() => Object.fromEntries(['s', 'h', 'd', 'c'].map(s => {
            const card = document.querySelector('.rzt .felt .card.s-' + s);
            return [s, card ? getComputedStyle(card).color : null];
        }))""")
    assert colours == {"s": "rgb(17, 17, 17)", "h": "rgb(208, 2, 27)",
                       "d": "rgb(11, 92, 213)", "c": "rgb(16, 138, 47)"}
    # The history pane wraps its lines: nothing sticks out on the right.
    overflow = page.evaluate(
        """() => { const h = document.querySelector('.rzt .history');
                   return h.scrollWidth - h.clientWidth; }""")
    assert overflow <= 1
    page.screenshot(path=str(ARTIFACTS / "dashboard-replayer-next.png"), full_page=True)


def test_audit_files_show_short_with_the_full_path_on_hover(server: str, browser_page: Page
                                                            ) -> None:
    page = browser_page
    page.goto(server + "/audit?rule=LOG-DESC")
    _settle(page, "Audit")
    cells = page.locator(".rz td.file")
    assert cells.count() >= 3
    for i in range(cells.count()):
        cell = cells.nth(i)
        full = cell.get_attribute("title") or ""
        assert full.startswith("/") and full.endswith(cell.inner_text().strip())
        assert len(cell.inner_text()) < len(full)
    # Every message whole: the cells wrap instead of cutting.
    messages = page.locator(".rz tbody tr td:nth-child(4)")
    for i in range(messages.count()):
        cell = messages.nth(i)
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth")


def test_untrusted_names_show_as_literal_text_in_the_browser(
    server: str, browser_page: Page
) -> None:
    page = browser_page
    page.goto(server + "/replayer?hand=PokerStars%3A900000000002&line=85")
    _settle(page, "Hand replayer")
    body = page.locator("body").inner_text()
    assert "Table **Gotha** II" in body
    assert "<img src=x onerror=alert(1)>" in body  # shown, as text
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("strong", has_text="Gotha").count() == 0
    assert page.locator("strong", has_text="bold").count() == 0
    assert DIALOGS == []  # no script from a name ever ran


EQUITY_HAND = "/replayer?hand=PokerStars%3A206542836474"


def _percent(text: str) -> float:
    return float(re.search(r"([\d.]+)%", text).group(1))  # type: ignore[union-attr]


def test_replayer_shows_equity_by_seat_and_street_in_both_views(
    server: str, browser_page: Page
) -> None:
    page = browser_page
    page.goto(server + EQUITY_HAND)
    _settle(page, "Hand replayer")
    page.get_by_role("button", name="End").click()
    page.wait_for_function(
        "() => document.querySelector('.rzt .now')?.innerText.includes('Summary')",
        timeout=60_000)
    _settle(page, "Hand replayer")
    shares = [_percent(t) for t in page.locator(".rzt .seat .eq").all_inner_texts()]
    assert len(shares) >= 2 and sum(shares) == pytest.approx(100, abs=0.5)
    assert page.locator('[data-testid="stVegaLiteChart"]').count() == 1
    assert "Hero's view" in page.locator(".rzt .seat .eq").first.get_attribute("title")  # type: ignore[operator]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "dashboard-replayer-equity-hero.png"), full_page=True)
    page.get_by_text("Full view (cards shown at the end)").click()
    page.wait_for_function(
        """() => document.querySelector('.rzt .seat .eq')?.title.startsWith('Full view')""",
        timeout=60_000)
    _settle(page, "Hand replayer")
    full = [_percent(t) for t in page.locator(".rzt .seat .eq").all_inner_texts()]
    assert sum(full) == pytest.approx(100, abs=0.5)
    assert sorted(full) != sorted(shares)  # the shown down cards change what is known
    page.screenshot(path=str(ARTIFACTS / "dashboard-replayer-equity.png"), full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0
