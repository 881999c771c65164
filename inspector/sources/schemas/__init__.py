"""The registry of chat-history schemas kept in SQL databases (`SCHEMAS`, by the name `--format`
takes, in recognition order), read and written by the same code on SQLite and PostgreSQL. Each is a
module here ending with one `HistorySchema` (the contract, `contract.py`); its writer is a
private module beside it (`_*.py`), loaded only when a fix writes. `TABLE` reads a table named
with `--table T --map ...`: never recognised, so not among `SCHEMAS`. Which of them a backend
reads it declares itself (`recognition.Backend`).

A new schema is one module and one line in `SCHEMA_MODULES` (SQLite reads every schema), and one in
`POSTGRESQL` (`inspector.sources.postgres.history`) when PostgreSQL runs its SQL too. The registry is
built when first used: the command line lists the names (`schema_names`) without importing one.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from inspector.support.lazy_registry import registry_attribute

if TYPE_CHECKING:
    from inspector.sources.schemas.contract import HistorySchema

# Each schema's module, in recognition order; the schema's name is the module's, `_` written `-`.
SCHEMA_MODULES = (
    "llm",
    "llm_legacy",
    "rubyllm",
    "open_webui",
    "elia",
    "agents_sdk",
    "langchain_sql",
    "opencode",
    "goose",
    "crush",
    "cursor_cli",
)

# Built on first use (`__getattr__`): the schemas by name, and the schema of a table named by hand.
SCHEMAS: dict[str, HistorySchema]
TABLE: HistorySchema


class _Registry(NamedTuple):
    """The schemas recognised, by name in recognition order, and the one of a table named by hand."""

    schemas: dict[str, HistorySchema]
    table: HistorySchema


_NAMES = {"SCHEMAS": "schemas", "TABLE": "table"}


def schema_names() -> list[str]:
    """Every schema's name, in recognition order, without importing one."""
    return [module.replace("_", "-") for module in SCHEMA_MODULES]


def schema_named(name: str) -> HistorySchema:
    """The schema a location names (`HistoryLocation.format`): one of `SCHEMAS`, or `TABLE`."""
    registry = _registry()
    return registry.table if name == registry.table.name else registry.schemas[name]


@cache
def _registry() -> _Registry:
    modules = [import_module(f"{__name__}.{module}") for module in SCHEMA_MODULES]
    return _Registry(
        {module.SCHEMA.name: module.SCHEMA for module in modules}, import_module(f"{__name__}.table").SCHEMA
    )


# `SCHEMAS` or `TABLE`, every schema imported on first use of one of them.
__getattr__ = registry_attribute(globals(), __name__, _NAMES, _registry)
