"""Held-out corpus for `claimed-success`: failed tool results and the replies that claim them done,
written from sources the failure forms were not built from, and clean cases that must give no
finding. `bench_claimed.py` measures both.

Each case is (source, calls, reply). The failed ones are split by where the failure comes from:
command-line tools (`claimed_heldout_commands.py`) and HTTP APIs and MCP servers
(`claimed_heldout_services.py`); each failure is the error text a real tool prints or returns, as
its documentation or source writes it, and each reply claims the task done in its own words. The
clean cases are `claimed_heldout_clean.py`'s.
"""

from __future__ import annotations

from typing import Any

# A call: the tool, its arguments, and the result it got (text, or an object written as JSON).
Call = tuple[str, dict[str, Any], Any]
