"""Tests of the hermes CLI."""
