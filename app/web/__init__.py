"""The web page for people: the session history read, searched and tidied in a browser.

Server-rendered (Jinja2 templates filled from the service layer) with htmx for partial updates and its SSE
extension for live ones, vendored under ``static/vendor``. It sits in the HTTP layer beside ``app.api``.
"""
