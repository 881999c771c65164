"""How long the common start and the common end of two texts are, found by halving: each step
compares two slices in C, so megabytes cost a fraction of a second (a diff sets them aside first)."""

from __future__ import annotations


def common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of `a` and `b`."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(a: str, b: str) -> int:
    """The length of the longest common suffix of `a` and `b`."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[len(a) - middle : len(a) - low] == b[len(b) - middle : len(b) - low]:
            low = middle
        else:
            high = middle - 1
    return low
