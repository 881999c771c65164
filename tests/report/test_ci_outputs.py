"""`scan --output-format github|sarif|junit`: the scan as CI systems read it, through the command
line on the bundled samples and on a hostile session; SARIF validated against the OASIS schema and
JUnit against the Ant JUnit schema, the annotations parsed as the Actions runner parses them."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import xmlschema

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS, copied

SCHEMAS = Path(__file__).resolve().parents[1] / "helpers" / "schemas"
SAMPLES = ("notes-agent.claude-code.jsonl", "memory-agent.openai.json", "shell-agent.codex.jsonl")
ANNOTATION = re.compile(r"^::(error|warning|notice) file=([^,:]*),line=(\d+),title=([^,:]*)::(.*)$")
HOSTILE = "Done.\n::error file=x,line=1::pwned %0A::warning::again \x1b]0;title\x07 \ufffe"


def scanned(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str]:
    code = main(["scan", *arguments])
    return code, capsys.readouterr().out


@pytest.fixture
def samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The samples copied into a folder that is the current one (as a repository's checkout)."""
    copied(SAMPLES, SESSIONS, tmp_path)
    monkeypatch.chdir(tmp_path)
    return list(SAMPLES)


def json_findings(capsys: pytest.CaptureFixture[str], paths: list[str]) -> list[tuple[str, dict]]:
    main(["scan", "--json", *paths])
    report = json.loads(capsys.readouterr().out)
    return [(Path(session["path"]).name, finding) for session in report["sessions"] for finding in session["findings"]]


def test_sarif_validates_against_the_oasis_schema_and_points_at_each_turn_s_line(samples, capsys):
    code, out = scanned(capsys, "--output-format", "sarif", *samples, "missing.json")
    assert code == 2
    log = json.loads(out)
    jsonschema.Draft4Validator(json.loads((SCHEMAS / "sarif-schema-2.1.0.json").read_text())).validate(log)
    [run] = log["runs"]
    expected = json_findings(capsys, samples)
    assert [(result["ruleId"], result["level"]) for result in run["results"]] == [
        (finding["kind"], {"info": "note"}.get(finding["severity"], finding["severity"])) for _, finding in expected
    ]
    for result, (name, finding) in zip(run["results"], expected):
        [location] = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"]["uri"] == name  # relative to the checkout
        line = physical["region"]["startLine"]
        if finding["turn_id"]:  # the line holds the turn's own id
            assert f'"{finding["turn_id"]}"' in Path(name).read_text(encoding="utf-8").splitlines()[line - 1]
        else:
            assert line == 1
    assert run["invocations"][0]["executionSuccessful"] is False
    assert run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] == "missing.json: no such file"
    _, again = scanned(capsys, "--output-format", "sarif", *samples)
    prints = [result["partialFingerprints"] for result in json.loads(again)["runs"][0]["results"]]
    assert prints == [result["partialFingerprints"] for result in run["results"]]
    assert len({json.dumps(p) for p in prints}) == len(prints)


def test_github_annotations_are_one_command_per_finding_at_its_line(samples, capsys):
    code, out = scanned(capsys, "--output-format", "github", *samples)
    assert code == 1
    *commands, last = out.splitlines()
    expected = json_findings(capsys, samples)
    assert last == f"inspector: {len(expected)} findings in 3 sessions"
    parsed = [ANNOTATION.match(line) for line in commands]
    assert all(parsed)
    severity = {"error": "error", "warning": "warning", "notice": "info"}
    assert [(m[2], severity[m[1]], m[4]) for m in parsed if m] == [
        (name, finding["severity"], f"inspector%3A {finding['kind']}") for name, finding in expected
    ]


def test_github_annotations_last_line_counts_in_words_that_agree(tmp_path, capsys, monkeypatch):
    copied(["quickstart.openai.jsonl"], Path(__file__).parents[2] / "inspector" / "samples", tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out = scanned(capsys, "--output-format", "github", "quickstart.openai.jsonl")
    assert code == 1
    assert out.splitlines()[-1] == "inspector: 1 finding in 1 session"


def test_a_hostile_reply_cannot_add_a_command_or_break_the_xml(write_session, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write_session(
        [
            {"role": "user", "content": "save it"},
            {"role": "assistant", "content": '{"success": true, "content": "x"}' + HOSTILE},
        ]
    )
    _, out = scanned(capsys, "--output-format", "github", str(path))
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("::warning file=session.json,line=1,")
    assert "\x1b" not in out and "\n::error file=x" not in out
    _, xml = scanned(capsys, "--output-format", "junit", str(path))
    xmlschema.XMLSchema(SCHEMAS / "JUnit.xsd").validate(xml)
    assert "\x1b" not in xml and "\ufffe" not in xml


def test_junit_validates_and_fails_each_session_with_an_error_or_a_warning(samples, capsys):
    code, xml = scanned(capsys, "--output-format", "junit", *samples, "missing.json")
    assert code == 2
    schema = xmlschema.XMLSchema(SCHEMAS / "JUnit.xsd")
    schema.validate(xml)
    suites = schema.to_dict(xml)["testsuite"]
    assert [suite["@name"] for suite in suites] == [*samples, "unreadable"]
    failing = {name for name, finding in json_findings(capsys, samples) if finding["severity"] != "info"}
    assert {suite["@name"] for suite in suites if suite["@failures"]} == failing
    assert suites[-1]["testcase"][0]["error"]["@message"] == "missing.json: no such file"


def test_json_and_another_output_format_is_one_clear_error(capsys):
    assert main(["scan", "--json", "--output-format", "sarif", str(SESSIONS / SAMPLES[0])]) == 2
    assert (
        capsys.readouterr().err == "inspector: error: --json and --output-format sarif ask for two outputs: give one\n"
    )
    assert main(["scan", "--output-format", "json", str(SESSIONS / SAMPLES[0])]) == 1
    assert json.loads(capsys.readouterr().out)["schema"] == 1


def test_the_pre_commit_hook_refuses_a_staged_fake_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The real pre-commit, running the local hook docs/cli.md shows, on a repository with a staged
    transcript: it fails on the fake result and passes once the file is clean; the manifest for
    other repositories validates."""
    repository = Path(__file__).resolve().parents[2]
    manifest = subprocess.run(
        [sys.executable, "-m", "pre_commit", "validate-manifest", str(repository / ".pre-commit-hooks.yaml")],
        capture_output=True,
        text=True,
    )
    assert manifest.returncode == 0, manifest.stdout + manifest.stderr
    [config] = [
        block
        for block in re.findall(r"^```yaml\n(.*?)^```", (repository / "docs" / "cli.md").read_text(), re.M | re.S)
        if "pre-commit-config" in block
    ]
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    (project / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    shutil.copyfile(SESSIONS / "memory-agent.openai.json", project / "transcript.json")
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}

    def hook() -> subprocess.CompletedProcess[str]:
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "."], check=True)
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--all-files"], capture_output=True, text=True, env=environment
        )

    refused = hook()
    assert refused.returncode == 1 and "result-prefix" in refused.stdout
    shutil.copyfile(SESSIONS / "clean.openai.json", project / "transcript.json")
    assert hook().returncode == 0
