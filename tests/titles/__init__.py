"""Automatic session titles (issue 6)."""
