"""The value of one argument of a pythonic call, as JSON holds it, read with `ast` (never run).

A model that saw its tools described in JSON writes JSON's words in Python calls (OLMo 3 most
often): `null`, `true` and `false` are read as None, True and False (the names mapped to
constants in the syntax tree, then `ast.literal_eval`). A bytes literal `b"..."` cannot be a JSON
value (a JSON writer would turn it into base64, silently): it is read as the text it spells when
that is UTF-8, with a note saying so, since the model meant those characters; bytes that are not
UTF-8, sets, complex numbers, `...`, non-finite numbers and keys that are not text are refused with
a note, and their call is not recovered. Tuples become lists.
"""

from __future__ import annotations

import ast
import math
from typing import Any

BYTES_AS_TEXT = 'a bytes literal (b"...") in its arguments, recovered as the text it spells'
BYTES_NOT_TEXT = 'a bytes literal (b"...") that is not UTF-8 text, which a JSON call cannot hold'
NOT_JSON = "a Python value that JSON cannot hold (a set, a complex number, `...` or a key that is not text)"
_JSON_WORDS = {"null": None, "true": True, "false": False}


class NotJson(ValueError):
    """A literal that JSON cannot hold; its message is the block's note."""


class _JsonWords(ast.NodeTransformer):
    """JSON's words (`null`, `true`, `false`) in a syntax tree replaced by the constants they name."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _JSON_WORDS:
            return ast.copy_location(ast.Constant(_JSON_WORDS[node.id]), node)
        return node


def argument_value(node: ast.expr) -> tuple[Any, bool]:
    """The JSON value an argument's syntax node writes, and whether it held bytes read as text.
    ValueError (SyntaxError, TypeError, RecursionError) when it is not a literal; `NotJson` when
    it is one JSON cannot hold."""
    return _as_json(ast.literal_eval(_JsonWords().visit(node)))


def _as_json(value: Any) -> tuple[Any, bool]:
    """`value` as JSON holds it, and whether it held bytes (read as the UTF-8 text they spell)."""
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8"), True
        except UnicodeDecodeError:
            raise NotJson(BYTES_NOT_TEXT) from None
    if isinstance(value, (list, tuple)):
        items = [_as_json(item) for item in value]
        return [item for item, _ in items], any(held for _, held in items)
    if isinstance(value, dict):
        if not all(isinstance(key, str) for key in value):
            raise NotJson(NOT_JSON)
        entries = {key: _as_json(item) for key, item in value.items()}
        return {key: item for key, (item, _) in entries.items()}, any(held for _, held in entries.values())
    if isinstance(value, float) and not math.isfinite(value):
        raise NotJson(NOT_JSON)
    if value is None or isinstance(value, (str, int, float)):
        return value, False
    raise NotJson(NOT_JSON)  # sets, complex numbers, Ellipsis
