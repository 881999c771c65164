"""The colours the app's text is drawn in: Textual's themes, with the light one (`textual-light`)
given darker text colours, and the JSON of call arguments highlighted in the theme's text colours
at full strength.

Textual's light theme draws headings (`$text-accent`), numbers and warnings (`$text-warning`),
strings and counts (`$text-success`) and the footer's keys at about 3:1 against its grey
backgrounds, and its JSON highlighting fades strings to 90% and constants to 80%, lower still;
text wants 4.5:1 (WCAG AA). The light theme here keeps the same name (so a saved choice still
applies), its backgrounds, and the hue of each colour, only darker; its tints (the diff's removed,
added and changed spans: `$error-muted`, `$success-muted`, `$warning-muted`) are unchanged, as are
the dark themes.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from textual.theme import BUILTIN_THEMES, Theme

if TYPE_CHECKING:
    from textual.highlight import HighlightTheme

LIGHT = "textual-light"
# each reads at 4.5:1 or more on the light theme's background, surface and panel (#E0E0E0, #D8D8D8, #D0D0D0)
LIGHT_TEXT_COLOURS = {
    "text-accent": "#7F4600",  # headings, border titles: Textual's amber, darker
    "text-warning": "#7F4600",  # warnings, numbers, pending counts: the same amber
    "text-success": "#1B5E20",  # strings, approved counts: a darker green
    "footer-key-foreground": "#00529B",  # the footer's keys: a darker blue
}


def light_theme() -> Theme:
    """Textual's light theme with `LIGHT_TEXT_COLOURS`, under its own name."""
    base = BUILTIN_THEMES[LIGHT]
    return replace(base, variables={**base.variables, **LIGHT_TEXT_COLOURS})


@cache
def json_highlight() -> type[HighlightTheme]:
    """Textual's highlighting, with JSON strings and constants (true, false, null) in the theme's
    `$text-success` at full strength rather than faded, so they read as well as the theme's text
    (made on first use: the highlighter, Pygments, is loaded when arguments are first shown)."""
    from pygments.token import Token
    from textual.highlight import HighlightTheme

    class JsonHighlight(HighlightTheme):
        STYLES = {
            **HighlightTheme.STYLES,
            Token.Keyword.Constant: "bold $text-success",
            Token.Literal.String: "$text-success",
            Token.Literal.String.Double: "$text-success",
        }

    return JsonHighlight
