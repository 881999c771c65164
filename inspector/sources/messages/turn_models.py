"""The model that wrote each assistant turn, for the formats that record it apart from the message
read as the turn (a span's attributes, an observation, the context line before a reply)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from inspector.model import ASSISTANT, Turn

NOT_A_MODEL = "<synthetic>"  # what Claude Code names as the model of a message it wrote itself


def model_name(value: Any) -> str | None:
    """`value` when it names a model (a non-empty string), else None."""
    return value if isinstance(value, str) and value and value != NOT_A_MODEL else None


def with_models(turns: Iterable[Turn], model_of: Callable[[Turn], Any]) -> list[Turn]:
    """`turns`, just built by a reader and not yet shared, each assistant turn given in place the
    model `model_of` finds for it (a copy of each cost more than reading it on a large rollout)."""
    turns = list(turns)
    for turn in turns:
        if turn.role == ASSISTANT and (model := model_name(model_of(turn))):
            turn.model = model
    return turns
