"""``hermes open``: sign a browser in to the web page with a one-time link, as Jupyter's does.

The CLI proves itself with the API token it already reads (``HERMES_API_TOKEN`` or the token file); the
server answers with a single-use code, and only that goes into the URL the browser opens.
"""

from __future__ import annotations

import webbrowser

import typer

from app.cli.context import get_env
from app.cli.output import say


def open_page(
    ctx: typer.Context,
    print_only: bool = typer.Option(
        False, "--print", help="Print the one-time link instead of opening a browser"
    ),
) -> None:
    """Open the web page in a browser, signed in by a one-time link (valid once, for 15 minutes)."""
    env = get_env(ctx)
    link = env.api().send("POST", "/web/sign-in-links", feature="the web page")
    url = env.config.url.rstrip("/") + str(link["path"])
    if print_only or not webbrowser.open(url):
        say(url)
