"""Automatic session titles: generators behind one protocol, and the background worker that applies them."""
