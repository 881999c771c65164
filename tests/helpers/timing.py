"""How long a computation takes, measured so that a busy machine cannot fail a test: the CPU
seconds this process spends (user and system, every thread), which a quadratic regression
multiplies while another process (a second pytest-xdist worker, another job on the machine) leaves
them as they are; the seconds on the clock stretch with every process that competes for a core."""

from __future__ import annotations

import time


def cpu_time() -> float:
    """The CPU seconds this process has spent so far; the difference of two readings is what the
    code between them cost."""
    return time.process_time()
