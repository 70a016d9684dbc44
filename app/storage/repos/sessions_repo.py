"""The sessions aggregate's repository: :class:`Sessions`, the methods of ``sessions``, ``own_fields``,
``pins``, ``session_list`` and ``usage`` as one class."""

from __future__ import annotations

from app.storage.repos.own_fields import OwnFields
from app.storage.repos.pins import Pins
from app.storage.repos.session_list import SessionListing
from app.storage.repos.sessions import SessionRows
from app.storage.repos.usage import UsageCounters


class Sessions(SessionRows, OwnFields, Pins, SessionListing, UsageCounters):
    """The ``sessions`` rows: existence, the public shape, creation, ending, settings, deletion, listing,
    usage."""

    __slots__ = ()
