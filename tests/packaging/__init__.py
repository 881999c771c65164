"""Tests of the package as installed: the public API and the wheel."""
