"""The documentation's tables that the code also knows agree with it, both ways: the formats
`--format` takes, the finding kinds and their severities, and the commands' exit codes."""

from __future__ import annotations

import ast
import inspect
import re
import sys

import pytest

from inspector.cli.exit_codes import EXIT_CODES, epilog
from inspector.cli.main import main
from inspector.detect import DETECTORS, kinds
from inspector.model import SEVERITIES
from inspector.scan.scanner import scan_file
from inspector.sources import format_names, session_files
from inspector.sources.formats import FORMATS
from tests.helpers.markdown_pages import code_names, page, section, table
from tests.helpers.samples import SESSIONS, TOOL_SAMPLES

REAL_TOOLS_SESSIONS = TOOL_SAMPLES


def sql_schema_names() -> set[str]:
    """The SQL schemas `--format` takes, from their registry (the one line to change if it moves)."""
    from inspector.sources.schemas import SCHEMAS

    return set(SCHEMAS)


def documented_names(header: str) -> list[str]:
    return [code_names(row[0])[0] for row in table(page("formats.md"), header)]


def test_every_file_format_is_in_the_formats_table_and_every_name_there_is_one():
    listed = documented_names("| name | shape |")
    assert len(listed) == len(set(listed))
    assert set(listed) == set(FORMATS)


def test_every_sql_schema_is_in_the_schemas_table_and_every_name_there_is_one():
    listed = documented_names("| name | tables | one session per |")
    assert len(listed) == len(set(listed))
    assert set(listed) == sql_schema_names()


def test_the_places_table_lists_every_agent_discovery_looks_for_in_its_order():
    from inspector.sources.discovery import AGENTS

    listed = [row[0].strip("`") for row in table(page("formats.md"), "| tool | sessions |")]
    assert listed == [agent.name for agent in AGENTS]


def test_the_two_tables_are_every_name_format_takes():
    both = documented_names("| name | shape |") + documented_names("| name | tables | one session per |")
    assert sorted(both) == sorted(format_names())


def documented_kinds() -> dict[str, set[str]]:
    """Each kind of the finding kinds' table, with the severities its severity column names."""
    rows = table(page("finding-kinds.md"), "| kind | severity |")
    return {code_names(kind)[0]: set(re.findall(r"\b(error|warning|info)\b", severity)) for kind, severity, *_ in rows}


def declared_severities(detector) -> set[str]:
    """The severities a detector's module can give its findings: the severity constants its code
    names (`ERROR`, `WARNING`, `INFO`), imports left aside."""
    constants = {name.upper(): name for name in SEVERITIES}
    tree = ast.parse(inspect.getsource(sys.modules[detector.detect.__module__]))
    return {constants[node.id] for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id in constants}


def test_every_kind_is_in_the_kinds_table_with_the_severities_its_detector_gives():
    rows = table(page("finding-kinds.md"), "| kind | severity |")
    documented = documented_kinds()
    assert len(rows) == len(documented) and sorted(documented) == sorted(kinds())
    assert {detector.kind: declared_severities(detector) for detector in DETECTORS} == documented


def test_every_finding_in_the_samples_has_a_severity_the_table_gives_its_kind():
    documented = documented_kinds()
    found: set[tuple[str, str]] = set()
    for path in session_files(SESSIONS) + session_files(REAL_TOOLS_SESSIONS):
        for result in scan_file(path):
            found |= {(finding.kind, finding.severity) for finding in result.findings}
    assert {severity for _, severity in found} == set(SEVERITIES)  # the samples hold all three
    assert [(kind, severity) for kind, severity in sorted(found) if severity not in documented[kind]] == []


def test_the_kinds_the_rates_leave_out_are_the_ones_the_code_leaves_out():
    from inspector.scan.rates import NOT_RATED

    for name in ("finding-kinds.md", "cli.md", "app.md"):
        text = " ".join(page(name).split())
        said = text[text.index("every kind but ") :].split("notes")[0]
        assert sorted(code_names(said)) == sorted(NOT_RATED), name


def documented_exit_codes() -> dict[str, dict[int, str]]:
    rows = table(section(page("cli.md"), "Exit codes"), "| command | 0 | 1 | 2 |")
    return {
        command.strip("`"): {code: meaning for code, meaning in enumerate(meanings) if meaning != "—"}
        for command, *meanings in rows
    }


def test_the_exit_code_table_is_the_one_the_code_declares():
    assert documented_exit_codes() == EXIT_CODES


@pytest.mark.parametrize("command", [name for name in EXIT_CODES if " " not in name])
def test_each_command_s_help_ends_with_its_exit_codes(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert shown.endswith(" ".join(epilog(command).split()))
    for code, meaning in EXIT_CODES[command].items():
        assert f"{code} {meaning}" in shown


def test_the_app_s_help_ends_with_its_exit_codes(capsys):
    (app,) = [name for name in EXIT_CODES if " " in name]
    with pytest.raises(SystemExit):
        main(["--samples", "--help"])
    assert " ".join(capsys.readouterr().out.split()).endswith(" ".join(epilog(app).split()))


def test_the_hook_s_table_gives_every_kind_it_checks_in_its_order_with_what_it_does_by_default():
    from inspector.hooks.hook_settings import DEFAULT_MODES, HOOK_KINDS

    rows = table(page("hooks.md"), "| kind | by default |")
    assert [code_names(row[0])[0] for row in rows] == list(HOOK_KINDS)
    assert {code_names(row[0])[0]: row[1].split()[0] for row in rows} == {
        kind: {"block": "blocks", "warn": "warns"}[mode] for kind, mode in DEFAULT_MODES.items()
    }
