"""The web page in a real browser: search, hostile text, tool cards, changes, filters, live, export."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
from playwright.sync_api import Dialog, Page, expect

from tests.web.conftest import HOSTILE, NEEDLE, WebServer

ROOT = Path(__file__).resolve().parents[2]


def test_a_hit_on_the_third_page_of_the_list_is_found(web: Page, web_server: WebServer) -> None:
    web.goto("/")
    # The needle's session is the oldest chat: not among the first page's rows, nor the second's.
    expect(web.locator("li.row")).to_have_count(50)
    expect(web.locator("#row-needle")).to_have_count(0)
    web.get_by_role("button", name="Load more").click()
    expect(web.locator("li.row")).to_have_count(100)
    expect(web.locator("#row-needle")).to_have_count(0)

    web.keyboard.press("/")
    expect(web.get_by_label("Search")).to_be_focused()
    web.keyboard.type(NEEDLE)
    web.keyboard.press("Enter")
    hit = web.locator("li.hit").filter(has=web.locator("a[href^='/s/needle']"))
    expect(hit.locator("mark").first).to_have_text(NEEDLE)

    hit.locator("a").click()
    web.wait_for_url("**/s/needle?**")
    marks = web.locator("mark.hit")
    expect(marks).to_have_count(2)
    web.get_by_role("button", name="Next hit").click()
    expect(marks.nth(0)).to_have_class("hit current")
    web.get_by_role("button", name="Next hit").click()
    expect(marks.nth(1)).to_have_class("hit current")
    web.get_by_role("button", name="Previous hit").click()
    expect(marks.nth(0)).to_have_class("hit current")


def test_hostile_text_shows_as_text_and_runs_nothing(web: Page, web_server: WebServer) -> None:
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    web.on("dialog", dismiss)
    web.goto("/?preset=all&source=telegram")
    expect(web.locator("#row-hostile a.open")).to_have_text(HOSTILE["title"])
    expect(web.locator("#row-hostile .model")).to_have_text(HOSTILE["model"])

    web.goto("/s/hostile")
    expect(web.get_by_label("Title")).to_have_value(HOSTILE["title"])
    expect(web.locator("article.msg pre.text").first).to_have_text(HOSTILE["content"])
    card = web.locator("details.tool").first
    expect(card.locator("code.tool-name")).to_have_text(HOSTILE["tool"])
    card.click()
    expect(card.locator("pre.out")).to_have_text(HOSTILE["content"])

    web.goto("/?q=alert")
    web.wait_for_load_state("load")
    assert web.locator("main img, main script, a[href^='javascript']").count() == 0
    time.sleep(0.3)  # an onerror handler would have fired by now
    assert dialogs == []


def test_a_tool_call_and_its_result_share_one_card(web: Page) -> None:
    web.goto("/s/tools")
    cards = web.locator("details.tool")
    expect(cards).to_have_count(1)
    card = cards.first
    expect(card.locator("summary")).to_contain_text("terminal")
    expect(card.locator("summary")).to_contain_text("ls -la")
    card.locator("summary").click()
    expect(card.locator(".result pre.out")).to_have_text("total 8\nREADME.md\nsetup.py")
    # The result is not shown a second time as a message of its own, and reasoning is folded.
    expect(web.locator("article.msg.role-tool")).to_have_count(0)
    expect(web.locator("details.reasoning")).not_to_have_attribute("open", "")


def test_changes_through_the_page_survive_a_reload_and_agree_with_the_api(
    web: Page, web_server: WebServer
) -> None:
    web.goto("/s/pinme")
    web.get_by_label("Title").fill("Renamed in the browser")
    web.get_by_role("button", name="Rename").click()
    web.get_by_role("button", name="Pin", exact=True).click()
    expect(web.get_by_role("button", name="Unpin")).to_be_visible()
    web.get_by_role("button", name="Archive", exact=True).click()
    expect(web.get_by_role("button", name="Unarchive")).to_be_visible()

    web.reload()
    expect(web.get_by_label("Title")).to_have_value("Renamed in the browser")
    expect(web.get_by_role("button", name="Unpin")).to_be_visible()
    expect(web.get_by_role("button", name="Unarchive")).to_be_visible()
    with web_server.api() as api:
        session = api.get("/sessions/pinme").json()
    shown = (session["title"], session["pinned"], session["archived"])
    assert shown == ("Renamed in the browser", True, True)

    web.goto("/s/victim")
    web.once("dialog", lambda dialog: dialog.accept())
    web.get_by_role("button", name="Delete").click()
    web.wait_for_url(web_server.base_url + "/")
    expect(web.locator("#row-victim")).to_have_count(0)
    with web_server.api() as api:
        assert api.get("/sessions/victim").status_code == 404


def test_a_filter_in_the_url_applies_on_load(web: Page, web_server: WebServer) -> None:
    web.goto("/?source=discord&workspace=repo1")
    rows = web.locator("li.row")
    expect(rows.first).to_be_visible()
    with web_server.api() as api:
        params: dict[str, str | int] = {"source": "discord", "workspace": "repo1", "limit": 50}
        expected = api.get("/sessions", params=params).json()
    assert [r.get_attribute("data-id") for r in rows.all()] == [s["id"] for s in expected["items"]]
    expect(web.locator("li.row .badge")).to_have_text(["discord"] * len(expected["items"]))
    # The archive view shows the archived session, which the default view hides.
    web.goto("/?archived=only&preset=all")
    expect(web.locator("#row-archived")).to_be_visible()
    web.goto("/")
    expect(web.locator("#row-archived")).to_have_count(0)


def test_a_message_appended_through_the_api_shows_in_the_open_transcript(
    web: Page, web_server: WebServer
) -> None:
    web.goto("/s/live")
    expect(web.locator("article.msg")).to_have_count(1)
    web.locator("body[data-live=open]").wait_for(state="attached")
    with web_server.api() as api:
        sent = time.monotonic()
        api.post("/sessions/live/messages", json={"role": "assistant", "content": "appended live"})
    expect(web.get_by_text("appended live")).to_be_visible(timeout=2000)
    assert time.monotonic() - sent < 2.0


def test_an_open_transcript_catches_up_after_the_stream_reconnects(web: Page, web_server: WebServer) -> None:
    web.goto("/s/live")
    web.locator("body[data-live=open]").wait_for(state="attached")
    # The stream goes away (closed here, as a dropped connection would leave it) and a message arrives.
    web.evaluate("document.body['htmx-internal-data'].sseEventSource.close()")
    with web_server.api() as api:
        api.post("/sessions/live/messages", json={"role": "assistant", "content": "sent while away"})
    time.sleep(0.5)
    expect(web.get_by_text("sent while away")).to_have_count(0)
    # When a stream opens again, the page asks for what it missed, whatever the stream replays.
    web.evaluate("document.body.dispatchEvent(new CustomEvent('htmx:sseOpen', {bubbles: true}))")
    expect(web.get_by_text("sent while away")).to_be_visible(timeout=2000)
    expect(web.get_by_text("sent while away")).to_have_count(1)


def test_an_export_downloads_and_matches_the_api(web: Page, web_server: WebServer) -> None:
    web.goto("/s/tools")
    web.get_by_role("button", name="Export").click()
    for label, fmt in (("JSONL", "jsonl"), ("Markdown", "md")):
        with web.expect_download() as download:
            web.get_by_role("link", name=label, exact=True).click()
        body = Path(download.value.path()).read_bytes()
        with web_server.api() as api:
            expected = api.get("/export", params={"format": fmt, "session_id": "tools"}).content
        assert body == expected, fmt


def test_the_lineage_strip_links_the_chain_branches_and_delegates(web: Page, web_server: WebServer) -> None:
    web.goto("/s/comp_tip")
    chain = web.get_by_role("navigation", name="Lineage").locator("ol.chain li")
    expect(chain).to_have_count(2)
    expect(chain.nth(0).locator("a")).to_have_attribute("href", "/s/comp_root")
    expect(chain.nth(1)).to_have_attribute("aria-current", "page")
    children = web.locator("ul.children li")
    expect(children).to_have_text(["branch try the other approach", "delegate sub-task: read the docs"])
    expect(web.locator("article.summary-compression")).to_have_count(1)


def test_keyboard_and_bulk_actions(web: Page, web_server: WebServer) -> None:
    web.goto("/")
    web.keyboard.press("j")
    web.keyboard.press("j")
    expect(web.locator("li.row.current")).to_have_count(1)
    second = web.locator("li.row").nth(1).get_attribute("data-id")
    web.keyboard.press("Enter")
    web.wait_for_url(f"**/s/{second}")

    web.goto("/")
    picked = ["chat_105", "chat_102"]
    for sid in picked:
        web.locator(f"#row-{sid} input.pick").check()
    web.get_by_label("Bulk action").select_option("pin")
    web.once("dialog", lambda dialog: dialog.accept())
    web.get_by_role("button", name="Apply to selected").click()
    expect(web.locator(f"#row-{picked[0]} .mark.pinned")).to_be_visible()
    with web_server.api() as api:
        assert all(api.get(f"/sessions/{sid}").json()["pinned"] for sid in picked)
    web.goto("/?pinned=true&preset=all")
    expect(web.locator(f"#row-{picked[1]}")).to_be_visible()


def test_prune_previews_exactly_what_would_go(web: Page, web_server: WebServer) -> None:
    web.goto("/?preset=automation")
    web.get_by_text("Prune", exact=True).click()
    web.get_by_label("Ended sessions older than").fill("0")
    web.get_by_role("button", name="Preview prune").click()
    preview = web.locator("#prune-result ul.candidates li")
    expect(preview.first).to_be_visible()
    # The same as the API's dry run without archived sessions (what `hermes sessions prune` does).
    with web_server.api() as api:
        body = {"older_than_days": 0, "dry_run": True, "include_archived": False}
        expected = api.post("/maintenance/prune", json=body).json()
    shown = [li.locator("a").get_attribute("href") for li in preview.all()]
    assert shown == [f"/s/{sid}" for sid in expected["ids"]]
    # Nothing went: the preview is a dry run.
    with web_server.api() as api:
        assert api.get("/sessions/needle").status_code == 200


def test_the_page_is_usable_360_px_wide_and_makes_the_readme_screenshot(web: Page) -> None:
    web.set_viewport_size({"width": 360, "height": 740})
    web.goto("/s/tools")
    assert web.evaluate("document.documentElement.scrollWidth") <= 360
    web.goto("/")
    assert web.evaluate("document.documentElement.scrollWidth") <= 360

    web.set_viewport_size({"width": 1200, "height": 800})
    web.goto("/?preset=all")
    web.locator("li.row").first.wait_for()
    web.locator(".by-source a").first.wait_for()
    target = os.environ.get("HERMES_WEB_SCREENSHOT")
    shot = web.screenshot(path=str(ROOT / target) if target else None)
    assert shot[:8] == b"\x89PNG\r\n\x1a\n"


def test_pages_answer_with_the_csp_and_the_api_keeps_its_bearer_token(web_server: WebServer) -> None:
    with web_server.api() as api:
        assert api.get("/sessions", params={"limit": 1}).status_code == 200
    anon = httpx.get(web_server.base_url + "/sessions", timeout=10)
    assert anon.status_code == 401 and anon.headers["content-type"] == "application/problem+json"
    login = httpx.get(web_server.base_url + "/login", timeout=10)
    assert login.headers["content-security-policy"] == "default-src 'self'; frame-ancestors 'none'"
