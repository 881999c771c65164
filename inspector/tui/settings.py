"""The app's settings kept across runs: for now the theme the person chose.

They are a small JSON object in the inspector's state folder (`settings.json` beside the
`reviews/` folder, see `inspector.support.state_folder`), written whole or not at
all. A settings file that cannot be read, is not such an object, or names a theme this Textual
does not have is ignored with a line saying why, never a crash; the next change writes it anew.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

from inspector.errors import InspectorError
from inspector.support.safe_text import shown_name
from inspector.support.state_folder import inspector_state_folder

THEME = "theme"


def settings_path() -> Path:
    """Where the settings are kept: `$XDG_STATE_HOME/inspector/settings.json`."""
    return inspector_state_folder() / "settings.json"


def read_theme(path: Path, themes: Collection[str]) -> tuple[str | None, str]:
    """The theme saved at `path` if it is one of `themes`, and a line saying why a settings file
    there was ignored ("" when none was, or there is none)."""
    try:
        settings = _read(path)
    except InspectorError as error:
        return None, f"{error}: ignored, the default theme is used"
    theme = settings.get(THEME)
    if theme is None or theme in themes:
        return theme, ""
    return None, f"{shown_name(path)}: no theme {str(theme)!r} in this version: ignored, the default theme is used"


def save_theme(path: Path, theme: str) -> None:
    """Keep `theme` in the settings at `path` (other settings there kept; a broken file replaced).
    Raises `InspectorError` (one line) when it cannot be written."""
    try:
        settings = _read(path)
    except InspectorError:
        settings = {}
    if settings.get(THEME) == theme:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InspectorError(
            f"{shown_name(path.parent)}: cannot make the folder for the settings ({exc.strerror})"
        ) from None
    from inspector.sources.files.document import write_text_atomic  # the app starts without its reader

    write_text_atomic(path, json.dumps({**settings, THEME: theme}, indent=1) + "\n")


def _read(path: Path) -> dict[str, Any]:
    """The settings object at `path` (empty when there is no file). Raises `InspectorError`."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, NotADirectoryError):  # none there (saving one will say why it cannot)
        return {}
    except OSError as exc:
        raise InspectorError(f"{shown_name(path)}: cannot read the settings ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise InspectorError(f"{shown_name(path)}: the settings are not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise InspectorError(
            f"{shown_name(path)}: the settings are not JSON (line {exc.lineno} column {exc.colno})"
        ) from None
    if not isinstance(document, dict):
        raise InspectorError(f"{shown_name(path)}: the settings are not a JSON object")
    return document
