"""The ``hermes`` sub-commands."""
