"""Detector `tool-markup`, MiniMax-M3: tags written after the namespace marker `]<]minimax[>[`,
each parameter an element named by its key, nested elements an object; several calls in one
block, after thinking and prose."""

from tests.helpers.markup import TOOLS, _tool, markup_findings, one_finding

NS = "]<]minimax[>["
FORECAST = _tool("forecast", city="string", options="object", days="integer")


def _block(*invokes: str) -> str:
    return f"{NS}<tool_call>\n" + "".join(invokes) + f"{NS}</tool_call>"


def _invoke(name: str, body: str) -> str:
    return f'{NS}<invoke name="{name}">\n{body}{NS}</invoke>\n'


def test_calls_with_nested_parameters_after_thinking_and_prose(write_session):
    block = _block(
        _invoke(
            "forecast",
            f"{NS}<city>São Paulo{NS}</city>\n{NS}<days>3{NS}</days>\n"
            f"{NS}<options>\n{NS}<units>metric{NS}</units>\n{NS}</options>\n",
        ),
        _invoke("run_code", f"{NS}<code>print('</code>')\n{NS}</code>\n"),
    )
    reply = f"<think>Two things to do.</think>\nLet me check.\n{block}"
    finding = one_finding(write_session, reply, [*TOOLS, FORECAST], family="minimax-m3")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("forecast", {"city": "São Paulo", "days": 3, "options": {"units": "metric"}}),
        ("run_code", {"code": "print('</code>')\n"}),
    ]
    assert finding.fix.apply_to_text(reply) == "<think>Two things to do.</think>\nLet me check."


def test_a_tag_that_never_closes_leaves_the_arguments_unparsed(write_session):
    reply = "Checking.\n" + _block(_invoke("get_weather", f"{NS}<city>Paris\n"))
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    (finding,) = markup_findings(path)
    assert finding.fix.add_calls == ()
    assert "do not parse" in finding.message
