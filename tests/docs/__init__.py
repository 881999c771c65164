"""Tests that the documentation says what the code does."""
