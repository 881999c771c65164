"""`inspector report`: once the report is written it says so in one line, naming where and how many
findings it holds, and exits 0 whatever it found (`scan` is the check that exits 1)."""

from inspector.cli.main import main
from tests.helpers.samples import SESSIONS


def test_report_says_what_it_wrote_in_one_line_and_exits_0(tmp_path, capsys):
    html, markdown = tmp_path / "report.html", tmp_path / "report.md"
    source = SESSIONS / "memory-agent.openai.json"
    assert main(["report", str(source), "--html", str(html), "--markdown", str(markdown)]) == 0
    printed = capsys.readouterr()
    assert printed.out == f"wrote {html} and {markdown}: a report of 6 findings in 1 session\n"
    assert printed.err == "" and html.stat().st_size and markdown.stat().st_size


def test_a_report_on_the_standard_output_is_said_on_stderr(capsys):
    assert main(["report", str(SESSIONS / "clean.openai.json"), "--markdown", "-"]) == 0
    printed = capsys.readouterr()
    assert printed.out.startswith("#") and "wrote" not in printed.out
    assert printed.err == "wrote the standard output: a report of 0 findings in 1 session\n"
