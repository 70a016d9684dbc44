"""The failures storage raises that are not the caller's fault (a lock held too long, I/O trouble, a lost
connection).

Background loops catch these to log and retry at their next pass; requests never do (the store translates
what a client can act on into its error class, and the error handler answers the rest). Each backend
declares its driver's errors as :class:`StorageError` where it wraps the driver, so the layers above test
for a storage failure without importing a backend.
"""

from __future__ import annotations

from abc import ABCMeta


class StorageError(Exception, metaclass=ABCMeta):
    """A storage failure of either backend: the driver's own exception, registered by its backend
    (``StorageError.register``), so it propagates unchanged and stays what the backend's own code catches.

    Test for it with ``isinstance``: an ``except`` clause matches real subclasses only, not registered ones.
    """
