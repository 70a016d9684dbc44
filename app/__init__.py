"""hermes-sessions: the Hermes agent's session history over HTTP."""

__version__ = "0.1.0"
