"""Signing in never weakens the token: no cookie, no page (loopback too); links work once; CSRF; sign-out."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from app.web.signin import COOKIE, SignIns
from tests.web.conftest import WEB_TOKEN, Watch, WebServer, sign_in, watch_page, watched_context


def test_without_a_cookie_there_is_no_page(web_server: WebServer) -> None:
    base = web_server.base_url
    for path in ("/", "/?q=needle", "/s/tools", "/rows", "/s/tools/older?before=99"):
        answer = httpx.get(base + path, timeout=10)
        assert answer.status_code == 303 and answer.headers["location"] == "/login", path
        assert "tools" not in answer.text
    for path in ("/events", "/export?session_id=tools", "/sessions/tools"):
        assert httpx.get(base + path, timeout=10).status_code == 401, path
    # A made-up cookie is no cookie.
    forged = httpx.get(base + "/", cookies={"hermes_page": "forged"}, timeout=10)
    assert forged.status_code == 303


def test_a_wrong_token_is_refused(browser: Browser, web_server: WebServer, watch: Watch) -> None:
    context = watched_context(browser, web_server, watch)
    page = context.new_page()
    page.goto("/")
    page.wait_for_url("**/login")
    page.get_by_label("API token").fill(WEB_TOKEN + "x")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_have_text("That is not this server's API token.")
    assert context.cookies() == []
    page.goto("/")
    page.wait_for_url("**/login")
    context.close()


def test_signing_in_sets_a_strict_http_only_cookie_without_the_token(
    browser: Browser, web_server: WebServer, watch: Watch
) -> None:
    context = watched_context(browser, web_server, watch)
    page = watch_page(context.new_page(), watch)
    sign_in(page)
    (cookie,) = context.cookies()
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and not cookie["secure"]
    assert WEB_TOKEN not in cookie["value"]
    assert page.evaluate("document.cookie") == ""
    context.close()
    assert watch.errors == [] and watch.elsewhere == []


def test_a_one_time_link_works_once(browser: Browser, web_server: WebServer, watch: Watch) -> None:
    with web_server.api() as api:
        made = api.post("/web/sign-in-links").json()
    assert made["expires_in"] == 900 and WEB_TOKEN not in made["path"]
    for link in (web_server.base_url + made["path"], web_server.banner_link):
        first = watched_context(browser, web_server, watch)
        page = first.new_page()
        page.goto(link)
        page.wait_for_url(web_server.base_url + "/")
        expect(page.locator("li.row").first).to_be_visible()
        first.close()

        second = watched_context(browser, web_server, watch)
        page = second.new_page()
        page.goto(link)
        expect(page.get_by_role("alert")).to_have_text("This sign-in link was used already or has expired.")
        assert second.cookies() == []
        second.close()


def test_a_change_without_the_csrf_header_is_refused(web: Page, web_server: WebServer) -> None:
    request = web.context.request
    refused = request.post(web_server.base_url + "/s/tools/pin")
    assert refused.status == 403
    assert request.post(web_server.base_url + "/s/tools/title", form={"title": "x"}).status == 403
    with web_server.api() as api:
        assert api.get("/sessions/tools").json()["pinned"] is False
    allowed = request.post(web_server.base_url + "/s/tools/unpin", headers={"HX-Request": "true"})
    assert allowed.status == 200
    # The cookie reads the JSON API (the event stream, exports) but never changes it.
    assert request.get(web_server.base_url + "/sessions/tools").status == 200
    assert request.delete(web_server.base_url + "/sessions/tools").status == 401


def test_signing_out_ends_the_cookie(web: Page, web_server: WebServer) -> None:
    (cookie,) = web.context.cookies()
    web.get_by_role("button", name="Sign out").click()
    web.wait_for_url("**/login")
    assert web.context.cookies() == []
    stale = httpx.get(web_server.base_url + "/", cookies={"hermes_page": cookie["value"]}, timeout=10)
    assert stale.status_code == 303


def test_a_cookie_signed_by_another_process_with_the_token_is_accepted(web_server: WebServer) -> None:
    """A restart or another replica sharing the token: nothing ties a cookie to the process that issued it."""
    base = web_server.base_url
    elsewhere = SignIns(WEB_TOKEN).open_session()
    answer = httpx.get(base + "/", cookies={COOKIE: elsewhere}, timeout=10)
    assert answer.status_code == 200 and 'class="row"' in answer.text
    assert httpx.get(base + "/sessions/tools", cookies={COOKIE: elsewhere}, timeout=10).status_code == 200
    other_token = SignIns(WEB_TOKEN + "x").open_session()
    assert httpx.get(base + "/", cookies={COOKIE: other_token}, timeout=10).status_code == 303


def test_the_token_appears_in_no_page_url_or_log_line(
    browser: Browser, web_server: WebServer, watch: Watch
) -> None:
    context = watched_context(browser, web_server, watch)
    page = watch_page(context.new_page(), watch)
    sign_in(page)
    pages = []
    for path in ("/", "/?q=needle", "/s/tools", "/s/comp_tip", "/login"):
        page.goto(path)
        pages.append(page.content())
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/login")
    pages.append(page.content())
    context.close()
    assert watch.urls and not any(WEB_TOKEN in url for url in watch.urls)
    assert not any(WEB_TOKEN in html for html in pages)
    assert WEB_TOKEN not in web_server.banner
    log = web_server.access_log.read_text()
    assert "/login" in log and WEB_TOKEN not in log
