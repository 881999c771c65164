"""The registry of SQL schemas: one module per schema, named as `--format` names it, each ending
with its `HistorySchema`; every one of them is registered, and a backend reads only the schemas
it declares."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from inspector.sources import format_names, schemas
from inspector.sources.postgres.history import POSTGRESQL
from inspector.sources.schemas import SCHEMAS, TABLE
from inspector.sources.schemas.contract import HistorySchema
from inspector.sources.sqlite.history import SQLITE

SHARED = {"contract", "recognition"}  # the package's modules that are no schema


def _schema_modules() -> dict[str, HistorySchema]:
    return {
        info.name: importlib.import_module(f"{schemas.__name__}.{info.name}").SCHEMA
        for info in pkgutil.iter_modules(schemas.__path__)
        if not info.name.startswith("_") and info.name not in SHARED
    }


def test_each_schema_module_is_named_as_format_names_it_and_registered():
    found = _schema_modules()
    assert all(schema.name == module.replace("_", "-") for module, schema in found.items())
    registered = {**SCHEMAS, TABLE.name: TABLE}
    assert len(found) == len(registered) and all(registered[schema.name] is schema for schema in found.values())
    assert set(SCHEMAS) <= set(format_names()) and TABLE.name not in format_names()  # a table is named, not a format
    assert TABLE.recognise is None and all(schema.recognise is not None for schema in SCHEMAS.values())


def test_every_schema_is_written_back_but_the_ones_read_only_and_only_llm_as_a_fork():
    assert {name for name, schema in SCHEMAS.items() if schema.writer is None} == {"crush", "cursor-cli"}
    assert {name for name, schema in SCHEMAS.items() if schema.writer and schema.writer.forks} == {"llm"}


@pytest.mark.parametrize(
    "backend, names", [(SQLITE, set(SCHEMAS)), (POSTGRESQL, {"rubyllm", "open-webui", "langchain-sql"})]
)
def test_each_backend_declares_the_schemas_it_reads(backend, names):
    assert set(backend.schemas) == names
    assert all(backend.schemas[name] is SCHEMAS[name] for name in names)
    assert list(backend.schemas) == [name for name in SCHEMAS if name in names]  # recognised in the registry's order


def test_the_names_are_the_registrys_in_recognition_order_and_listing_them_imports_no_schema():
    assert schemas.schema_names() == list(SCHEMAS)
    probe = (
        "import sys; from inspector.sources import format_names; names = format_names(); "
        "print(sorted(m for m in sys.modules if m.startswith('inspector.sources.schemas.')))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
