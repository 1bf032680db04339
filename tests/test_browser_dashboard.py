"""End to end: `razz import`, then `razz dashboard` as a user starts it, driven in Chromium.

Needs Debian's Chromium at /usr/bin/chromium (`apt-get install -y chromium`); Playwright's own
browser download does not work here. Screenshots of every page go to `test-artifacts/`.
"""

from __future__ import annotations

import os
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
    "replayer": ("/replayer?hand=PokerStars%3A900000000002", "Hand replayer"),
    "audit": ("/audit", "Audit"),
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
    process = subprocess.Popen(_razz("dashboard", "--db", str(db), "--port", str(port)),
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
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
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
    page.wait_for_url("**/replayer?hand=PokerStars%3A900000000002", timeout=30_000)
    page.locator("h3", has_text="hand #900000000002").first.wait_for(timeout=60_000)
    _settle(page, "Hand replayer")
    code = page.locator('[data-testid="stCode"]').inner_text()
    assert "86 ! Zoë the hero: shows [8c 4d 6s 7d 3c Ks 2h]" in code
    page.screenshot(path=str(ARTIFACTS / "dashboard-replayer-opened.png"), full_page=True)
    assert page.locator('[data-testid="stException"]').count() == 0


def test_untrusted_names_show_as_literal_text_in_the_browser(
    server: str, browser_page: Page
) -> None:
    page = browser_page
    page.goto(server + "/replayer?hand=PokerStars%3A900000000002")
    _settle(page, "Hand replayer")
    body = page.locator("body").inner_text()
    assert "Table **Gotha** II" in body
    assert "<img src=x onerror=alert(1)>" in body  # shown, as text
    assert page.locator('img[src="x"]').count() == 0
    assert page.locator("strong", has_text="Gotha").count() == 0
    assert page.locator("strong", has_text="bold").count() == 0
    assert DIALOGS == []  # no script from a name ever ran
