"""Zstandard decompression: the standard library's `compression.zstd` (Python 3.14 and later), or
on older Pythons its backport `backports.zstd`, the same module (a small dependency)."""

from __future__ import annotations

import sys

if sys.version_info >= (3, 14):
    from compression import zstd
else:
    from backports import zstd

__all__ = ["zstd"]
