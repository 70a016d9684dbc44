"""The sessions aggregate's repository: :class:`Sessions`, the methods of ``sessions``, ``pins``,
``session_list`` and ``usage`` as one class."""

from __future__ import annotations

from app.storage.repos.pins import Pins
from app.storage.repos.session_list import SessionListing
from app.storage.repos.sessions import SessionRows
from app.storage.repos.usage import UsageCounters


class Sessions(SessionRows, Pins, SessionListing, UsageCounters):
    """The ``sessions`` rows: existence, the public shape, creation, ending, settings, deletion, listing,
    usage."""

    __slots__ = ()
