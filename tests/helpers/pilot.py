"""Driving a Textual app headless with its Pilot: playing a scenario on it, waiting (never for
ever) until something holds, and reading a table's rows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import DataTable

SIZE = (120, 40)  # the terminal most tests run the app in
WAIT = 30.0  # seconds one wait may take before its test fails: far above any a loaded machine needs
SCENARIO = 120.0  # seconds a whole scenario may take


def play(
    app: App,
    scenario: Callable[[Pilot], Awaitable[None]],
    *,
    size: tuple[int, int] = SIZE,
    settled: bool = False,
    notifications: bool = False,
    message_hook: Callable[[Message], None] | None = None,
) -> None:
    """Run `app` headless at `size` and play `scenario` on it; with `settled`, once the app's first
    workers are done. A scenario still running after `SCENARIO` seconds fails the test."""

    async def run() -> None:
        async with app.run_test(size=size, notifications=notifications, message_hook=message_hook) as pilot:
            if settled:
                await settle(pilot)
            try:
                await asyncio.wait_for(scenario(pilot), SCENARIO)
            except TimeoutError:
                raise AssertionError(f"the scenario was still running after {SCENARIO:g} s") from None

    asyncio.run(run())


async def until(pilot: Pilot, condition: Callable[[], object], what: str, timeout: float = WAIT) -> None:
    """Wait until `condition()` holds, looking every 10 ms; after `timeout` seconds, fail saying
    `what` was waited for."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}")
        await pilot.pause(0.01)


async def settle(pilot: Pilot) -> None:
    """Wait until the app's workers are done and the messages they sent are handled."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def press(pilot: Pilot, *keys: str) -> None:
    """Press `keys`, then let the app handle what they did."""
    await pilot.press(*keys)
    await pilot.pause()


def rows(table: DataTable) -> list[list[str]]:
    """The table's rows, each cell as text."""
    return [[str(cell) for cell in table.get_row_at(index)] for index in range(table.row_count)]
