"""The agent dashboard's session API at ``/api/``: the contract of hermes-agent 0.19.0's own dashboard,
shape for shape, for the pages and apps written against it (its own error bodies, ``{"detail": ...}``, here
only)."""
