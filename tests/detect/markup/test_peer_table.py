"""Detector `tool-markup` measured on a table of leaked calls, one or more per family that the
inference servers' own parser tests cover (vLLM `tests/tool_parsers/`, SGLang
`test/srt/test_function_call_parser.py`): the shapes and facts (markers, separators, typing, what
they strip) are theirs; each reply is written here, with the prose a model puts around a call.

Each case gives the calls a correct recovery yields (name and typed arguments, in order). A case
is missed when no call is recovered, wrong when the calls recovered differ. Measured when the table
was written: of 58 cases, 9 were missed (Step3, xLAM lists, escaped GLM, OLMo 3 with
JSON literals, a block with a broken line) and 6 recovered wrong (calls after the first of a block,
indented Qwen3-Coder values); now none. The look-alikes (`CLEAN`) were clean then and are now. The
table is kept as a test: every case must be recovered right, so the figures cannot regress."""

from __future__ import annotations

import pytest

from inspector.scan.scanner import scan_file

KIND = "tool-markup"
QUESTION = "Can you take care of this for me?"


def _tool(name, **properties):
    return {
        "type": "function",
        "function": {
            "name": name,
            "parameters": {"type": "object", "properties": {key: {"type": kind} for key, kind in properties.items()}},
        },
    }


TOOLS = [
    _tool("get_weather", city="string", days="integer", unit="string"),
    _tool("get_time", timezone="string"),
    _tool("search_files", pattern="string", recursive="boolean", paths="array"),
    _tool("run_code", code="string"),
    _tool("calculate_area", shape="string", dimensions="object", precision="integer"),
    _tool("todo_write", todos="array"),
    _tool("edit_file", path="string", old_string="string", new_string="string", indent="integer", enabled="boolean"),
    _tool("send_message", recipient="string", message="string", urgent="boolean"),
]

FW = "｜"  # full-width bar U+FF5C (Step3, DeepSeek)
STEP3_BEGIN, STEP3_END = f"<{FW}tool_calls_begin{FW}>", f"<{FW}tool_calls_end{FW}>"
STEP3_CALL, STEP3_CALL_END, STEP3_SEP = f"<{FW}tool_call_begin{FW}>", f"<{FW}tool_call_end{FW}>", f"<{FW}tool_sep{FW}>"
DS_BEGIN, DS_END = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
DS_CALL, DS_CALL_END, DS_SEP = "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", "<｜tool▁sep｜>"


def _step3_call(name, **parameters):
    params = "".join(
        f'<steptml:parameter name="{key}">{value}</steptml:parameter>' for key, value in parameters.items()
    )
    return f'{STEP3_CALL}function{STEP3_SEP}<steptml:invoke name="{name}">{params}</steptml:invoke>{STEP3_CALL_END}'


WEATHER_PARIS = ("get_weather", {"city": "Paris", "days": 3})

# id -> (reply, the calls a correct recovery yields)
CASES: dict[str, tuple[str, list[tuple[str, dict]]]] = {
    # Hermes, Qwen 2.5, Granite 4, ERNIE 4.5: JSON in <tool_call>
    "hermes": (
        'Let me check the forecast for Paris.\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Paris", "days": 3}}\n</tool_call>',
        [WEATHER_PARIS],
    ),
    "hermes-two-blocks": (
        'I will check both cities.\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Dallas", "unit": "fahrenheit"}}\n</tool_call>\n<tool_call>\n{"name": '
        '"get_weather", "arguments": {"city": "Orlando", "unit": "fahrenheit"}}\n</tool_call>',
        [
            ("get_weather", {"city": "Dallas", "unit": "fahrenheit"}),
            ("get_weather", {"city": "Orlando", "unit": "fahrenheit"}),
        ],
    ),
    "hermes-comma-in-one-block": (
        'Checking Oslo and Bergen together.\n<tool_call>\n{"name": "get_weather", '
        '"arguments": {"city": "Oslo"}}, {"name": "get_weather", "arguments": '
        '{"city": "Bergen"}}\n</tool_call>',
        [("get_weather", {"city": "Oslo"}), ("get_weather", {"city": "Bergen"})],
    ),
    "hermes-unclosed-at-end": (
        'Running it now.\n<tool_call>\n{"name": "run_code", "arguments": {"code": "print(2 + 2)"}}',
        [("run_code", {"code": "print(2 + 2)"})],
    ),
    "granite4-list-in-tag": (
        'Sure.<tool_call>[{"name": "get_time", "arguments": {"timezone": "Asia/Tokyo"}}]</tool_call>',
        [("get_time", {"timezone": "Asia/Tokyo"})],
    ),
    # Qwen3-Coder, Qwen3 XML
    "qwen3-coder": (
        "I'll fetch the forecast.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
        "</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
        [WEATHER_PARIS],
    ),
    "qwen3-coder-multiline-object": (
        "Computing the area.\n<tool_call>\n<function=calculate_area>\n<parameter=shape>\n"
        "rectangle\n</parameter>\n<parameter=dimensions>\n"
        '{"width": 10,\n "height": 20}'
        "\n</parameter>\n<parameter=precision>\n2\n</parameter>\n</function>\n"
        "</tool_call>",
        [("calculate_area", {"shape": "rectangle", "dimensions": {"width": 10, "height": 20}, "precision": 2})],
    ),
    "qwen3-coder-indented": (
        "I'll check the weather.<tool_call>\n        <function=get_weather>\n"
        "        <parameter=city>\n        Dallas\n        </parameter>\n"
        "        <parameter=unit>\n        fahrenheit\n        </parameter>\n"
        "        </function>\n        </tool_call>",
        [("get_weather", {"city": "Dallas", "unit": "fahrenheit"})],
    ),
    "qwen3-coder-indented-code": (
        "Fixing the guard clause.\n<tool_call>\n  <function=edit_file>\n"
        "    <parameter=path>\n    app.py\n    </parameter>\n"
        "    <parameter=new_string>\n    if x:\n        return 1\n    </parameter>\n"
        "  </function>\n</tool_call>",
        [("edit_file", {"path": "app.py", "new_string": "if x:\n    return 1"})],
    ),
    "qwen3-coder-no-wrapper": (
        "<function=get_time>\n<parameter=timezone>\nEurope/Paris\n</parameter>\n</function>\nOne moment.",
        [("get_time", {"timezone": "Europe/Paris"})],
    ),
    "qwen3-xml-inline-values": (
        "Let me look.\n<tool_call>\n<function=search_files>\n<parameter=pattern>*.md"
        "</parameter>\n<parameter=recursive>true</parameter>\n</function>\n</tool_call>",
        [("search_files", {"pattern": "*.md", "recursive": True})],
    ),
    "seed-oss": (
        "A week in Hanoi, let me see.\n<seed:tool_call>\n<function=get_weather>\n<parameter=city>Hanoi"
        "</parameter>\n<parameter=days>7</parameter>\n</function>\n</seed:tool_call>",
        [("get_weather", {"city": "Hanoi", "days": 7})],
    ),
    # GLM-4.5 / 4.6 / 4.7
    "glm45": (
        "I will help you get the weather.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Beijing</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>",
        [("get_weather", {"city": "Beijing", "days": 2})],
    ),
    "glm47-no-newlines": (
        "Checking Shanghai.<tool_call>get_weather<arg_key>city</arg_key><arg_value>Shanghai</arg_value></tool_call>",
        [("get_weather", {"city": "Shanghai"})],
    ),
    "glm-escaped-array": (
        "Updating the plan.\n<tool_call>todo_write\\n<arg_key>todos</arg_key>\\n<arg_value>"
        '[{\\"id\\": \\"1\\", \\"task\\": \\"Audit the backend\\", \\"status\\": \\"in_progress\\"}, '
        '{\\"id\\": \\"2\\", \\"task\\": \\"Audit the frontend\\", \\"status\\": \\"pending\\"}]'
        "</arg_value>\\n</tool_call>",
        [
            (
                "todo_write",
                {
                    "todos": [
                        {"id": "1", "task": "Audit the backend", "status": "in_progress"},
                        {"id": "2", "task": "Audit the frontend", "status": "pending"},
                    ]
                },
            )
        ],
    ),
    "glm-escaped-string": (
        "Sending it.\n<tool_call>send_message\\n<arg_key>recipient</arg_key>\\n<arg_value>Amy"
        '</arg_value>\\n<arg_key>message</arg_key>\\n<arg_value>She said \\"see you at 5\\"'
        "</arg_value>\\n</tool_call>",
        [("send_message", {"recipient": "Amy", "message": 'She said "see you at 5"'})],
    ),
    # MiniMax
    "minimax-m1-lines": (
        'I\'ll check the weather and find your PDFs.\n<tool_calls>\n{"name": "get_weather", '
        '"arguments": {"city": "Lyon", "days": 2}}\n{"name": "search_files", "arguments": '
        '{"pattern": "*.pdf"}}\n</tool_calls>',
        [("get_weather", {"city": "Lyon", "days": 2}), ("search_files", {"pattern": "*.pdf"})],
    ),
    "minimax-m1-one-line-broken": (
        'Three things at once.\n<tool_calls>\n{"name": "get_weather", "arguments": '
        '{"city": "Nice"}}\n{"name": "run_code", "arguments": {"code": "print(1)"\n'
        '{"name": "get_time", "arguments": {"timezone": "Europe/Paris"}}\n</tool_calls>',
        [("get_weather", {"city": "Nice"}), ("get_time", {"timezone": "Europe/Paris"})],
    ),
    "minimax-m2": (
        'Let me search.\n<minimax:tool_call>\n<invoke name="search_files">\n<parameter name="pattern">'
        'TODO</parameter>\n<parameter name="recursive">false</parameter>\n</invoke>\n'
        "</minimax:tool_call>",
        [("search_files", {"pattern": "TODO", "recursive": False})],
    ),
    "anthropic-xml": (
        'I\'ll search for TODO markers.\n\n<function_calls>\n<invoke name="search_files">\n'
        '<parameter name="pattern">TODO</parameter>\n<parameter name="paths">["src", "tests"]'
        "</parameter>\n</invoke>\n</function_calls>",
        [("search_files", {"pattern": "TODO", "paths": ["src", "tests"]})],
    ),
    # Mistral
    "mistral-array": (
        '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Rome", "days": 2}}]',
        [("get_weather", {"city": "Rome", "days": 2})],
    ),
    "mistral-v11": (
        'Sure.\n[TOOL_CALLS]get_weather{"city": "Rome"}[TOOL_CALLS]run_code{"code": "1+1"}',
        [("get_weather", {"city": "Rome"}), ("run_code", {"code": "1+1"})],
    ),
    "mistral-v13-args": (
        '[TOOL_CALLS]get_time[ARGS]{"timezone": "Europe/Rome"}',
        [("get_time", {"timezone": "Europe/Rome"})],
    ),
    # Llama 3.x JSON
    "llama3": (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Oslo"}}',
        [("get_weather", {"city": "Oslo"})],
    ),
    "llama3-semicolon-space": (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; '
        '{"name": "get_time", "parameters": {"timezone": "Europe/Paris"}}',
        [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "Europe/Paris"})],
    ),
    "llama3-semicolon-bare": (
        'Some intro. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}};'
        '{"name": "get_time", "parameters": {"timezone": "Europe/Paris"}}',
        [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "Europe/Paris"})],
    ),
    "llama3-semicolon-spaced": (
        '<|python_tag|>{"name": "search_files", "parameters": {"pattern": "a"}} ; '
        '{"name": "search_files", "parameters": {"pattern": "b"}} ; '
        '{"name": "get_time", "parameters": {}}',
        [("search_files", {"pattern": "a"}), ("search_files", {"pattern": "b"}), ("get_time", {})],
    ),
    "llama3-semicolon-newline": (
        '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Lima"}};\n'
        '{"name": "get_time", "parameters": {"timezone": "America/Lima"}}',
        [("get_weather", {"city": "Lima"}), ("get_time", {"timezone": "America/Lima"})],
    ),
    # Pythonic (Llama 3.2 / 4, ToolACE), LFM2, OLMo 3
    "pythonic": (
        "Here's a tool call: [get_weather(city='New York', unit='celsius')]",
        [("get_weather", {"city": "New York", "unit": "celsius"})],
    ),
    "pythonic-nested": (
        "[calculate_area(shape='circle', dimensions={'radius': 5}), search_files(pattern='test', paths=['a', 'b'])]",
        [
            ("calculate_area", {"shape": "circle", "dimensions": {"radius": 5}}),
            ("search_files", {"pattern": "test", "paths": ["a", "b"]}),
        ],
    ),
    "llama4-python-start": (
        "User wants the weather on Mars. <|python_start|>[get_weather(city='Mars', unit='celsius')]"
        "<|python_end|> In this way we will get it.",
        [("get_weather", {"city": "Mars", "unit": "celsius"})],
    ),
    "lfm2-pythonic": (
        '<|tool_call_start|>[get_weather(city="Turku", days=1)]<|tool_call_end|>Checking Turku now.',
        [("get_weather", {"city": "Turku", "days": 1})],
    ),
    "lfm2-json": (
        '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Turku"}}]<|tool_call_end|>',
        [("get_weather", {"city": "Turku"})],
    ),
    "olmo3": (
        'I\'ll look this up.\n<function_calls>\nget_weather(city="Lima", days=2)\n'
        'get_time(timezone="America/Lima")\n</function_calls>',
        [("get_weather", {"city": "Lima", "days": 2}), ("get_time", {"timezone": "America/Lima"})],
    ),
    "olmo3-json-literals": (
        '<function_calls>\nsearch_files(pattern="*.log", recursive=true, paths=null)\n'
        'send_message(recipient="ops", message="rotating logs", urgent=false)\n</function_calls>',
        [
            ("search_files", {"pattern": "*.log", "recursive": True, "paths": None}),
            ("send_message", {"recipient": "ops", "message": "rotating logs", "urgent": False}),
        ],
    ),
    "gemini-tool-code": (
        "```tool_code\nprint(default_api.get_weather(city='Kyoto', days=2))\n```",
        [("get_weather", {"city": "Kyoto", "days": 2})],
    ),
    # Granite, InternLM, Jamba / Hunyuan, Nemotron, Phi-4, Cohere
    "granite3": (
        'Sure, let me check.\n\n<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Boston", "days": 1}}]',
        [("get_weather", {"city": "Boston", "days": 1})],
    ),
    "granite-20b": (
        'Computing pi.\n<function_call> {"name": "run_code", "arguments": {"code": "import math"}}',
        [("run_code", {"code": "import math"})],
    ),
    "internlm2": (
        'I need the live forecast.<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": '
        '{"city": "Shanghai", "days": 2}}<|action_end|>',
        [("get_weather", {"city": "Shanghai", "days": 2})],
    ),
    "jamba": (
        '<tool_calls>[\n    {"name": "get_weather", "arguments": {"city": "Porto"}},\n    {"name": "run_code", '
        '"arguments": {"code": "print(21 * 2)"}}\n]</tool_calls>',
        [("get_weather", {"city": "Porto"}), ("run_code", {"code": "print(21 * 2)"})],
    ),
    "hunyuan": (
        '<think>The user wants the time in Tokyo.</think>\n<tool_calls>[{"name": "get_time", "arguments": '
        '{"timezone": "Asia/Tokyo"}}]</tool_calls>',
        [("get_time", {"timezone": "Asia/Tokyo"})],
    ),
    "nemotron": (
        'I\'ll pull the forecast.\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Denver", '
        '"days": 5}}]</TOOLCALL>',
        [("get_weather", {"city": "Denver", "days": 5})],
    ),
    "phi4-mini": (
        'Let me find them. functools[{"name": "search_files", "arguments": {"pattern": "*.md", "recursive": false}}]',
        [("search_files", {"pattern": "*.md", "recursive": False})],
    ),
    "cohere": (
        'I will search the docs first.\n<|START_ACTION|>[\n    {"tool_call_id": "0", '
        '"tool_name": "search_files", "parameters": {"pattern": "invoice"}}\n]<|END_ACTION|>',
        [("search_files", {"pattern": "invoice"})],
    ),
    # DeepSeek, Kimi, gpt-oss, Gemma
    "deepseek-v3": (
        f"Let me look up Tokyo.\n\n{DS_BEGIN}{DS_CALL}function{DS_SEP}get_weather\n```json\n"
        f'{{"city": "Tokyo", "days": 3}}\n```{DS_CALL_END}{DS_END}',
        [("get_weather", {"city": "Tokyo", "days": 3})],
    ),
    "deepseek-v31": (
        f'{DS_BEGIN}{DS_CALL}get_weather{DS_SEP}{{"city": "Shanghai"}}{DS_CALL_END}'
        f'{DS_CALL}get_time{DS_SEP}{{"timezone": "Asia/Shanghai"}}{DS_CALL_END}{DS_END}',
        [("get_weather", {"city": "Shanghai"}), ("get_time", {"timezone": "Asia/Shanghai"})],
    ),
    "deepseek-dsml": (
        'Searching src.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="search_files">\n'
        '<｜DSML｜parameter name="pattern" string="true">TODO</｜DSML｜parameter>\n'
        '<｜DSML｜parameter name="recursive" string="false">true</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>",
        [("search_files", {"pattern": "TODO", "recursive": True})],
    ),
    "kimi-k2": (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>'
        '{"timezone": "Europe/London"}<|tool_call_end|><|tool_calls_section_end|>',
        [("get_weather", {"city": "Paris"}), ("get_time", {"timezone": "Europe/London"})],
    ),
    "gpt-oss-harmony": (
        '<|channel|>commentary to=functions.run_code <|constrain|>json<|message|>{"code": "print(2 ** 10)"}<|call|>',
        [("run_code", {"code": "print(2 ** 10)"})],
    ),
    "gemma4": (
        'Let me check Austin. <|tool_call>call:get_weather{city:<|"|>Austin, TX<|"|>,days:2}<tool_call|>',
        [("get_weather", {"city": "Austin, TX", "days": 2})],
    ),
    "function-gemma": (
        "<start_function_call>call:get_time{timezone:<escape>Europe/Oslo<escape>}<end_function_call>",
        [("get_time", {"timezone": "Europe/Oslo"})],
    ),
    # Step3
    "step3": (
        f"Let me check the weather for you.\n\n{STEP3_BEGIN}{_step3_call('get_weather', city='Tokyo')}"
        f"{STEP3_END}\n\nI'll get that information.",
        [("get_weather", {"city": "Tokyo"})],
    ),
    "step3-two-calls-typed": (
        f"{STEP3_BEGIN}\n{_step3_call('get_weather', city='Tokyo', days='4')}\n"
        f"{_step3_call('get_time', timezone='Asia/Tokyo')}\n{STEP3_END}",
        [("get_weather", {"city": "Tokyo", "days": 4}), ("get_time", {"timezone": "Asia/Tokyo"})],
    ),
    "step3-whitespace-kept": (
        f"Re-indenting.\n{STEP3_BEGIN}"
        + _step3_call("edit_file", old_string="    if x:", indent=" 4 ", enabled=" true ")
        + STEP3_END,
        [("edit_file", {"old_string": "    if x:", "indent": 4, "enabled": True})],
    ),
    # xLAM
    "xlam-bare-list": (
        '[{"name": "get_weather", "arguments": {"city": "Dallas", "unit": "fahrenheit"}}, '
        '{"name": "get_weather", "arguments": {"city": "Orlando", "unit": "fahrenheit"}}]',
        [
            ("get_weather", {"city": "Dallas", "unit": "fahrenheit"}),
            ("get_weather", {"city": "Orlando", "unit": "fahrenheit"}),
        ],
    ),
    "xlam-after-think": (
        "<think>I'll help you with that.</think>"
        '[{"name": "get_weather", "arguments": {"city": "Seattle", "unit": "celsius"}}]',
        [("get_weather", {"city": "Seattle", "unit": "celsius"})],
    ),
    "xlam-json-fence": (
        'I\'ll help you with that.\n```json\n[{"name": "get_weather", "arguments": {"city": "Dallas"}}]\n```',
        [("get_weather", {"city": "Dallas"})],
    ),
    "xlam-tool-calls-tag": (
        'I\'ll check the weather for you.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Dallas"}}]',
        [("get_weather", {"city": "Dallas"})],
    ),
}


# id -> a reply that shows or discusses the shapes above, or answers with data: not a call.
CLEAN: dict[str, str] = {
    "tags-in-backticks": (
        "Hermes wraps a call in `<tool_call>`, Llama 3 starts one with `<|python_tag|>` and joins "
        "several with `;`, Step3 opens a section with `" + STEP3_BEGIN + "`."
    ),
    "step3-markers-in-prose": f"The section marker {STEP3_BEGIN} comes first, then the calls, then {STEP3_END}.",
    "records-list": '[{"name": "Alice", "role": "admin"}, {"name": "Bob", "role": "viewer"}]',
    "tool-definitions-list": (
        '[{"name": "get_weather", "description": "Current weather", "parameters": '
        '{"type": "object", "properties": {"city": {"type": "string"}}}}]'
    ),
    "debate-arguments": '[{"name": "Alice", "arguments": ["cheaper", "sooner"]}, {"name": "Bob", "arguments": []}]',
    "records-after-thinking": '<think>They asked for the raw rows.</think>\n[{"name": "Paris", "population": 2102650}]',
    "pythonic-example-in-fence": (
        "Call it like this:\n```python\n[search_files(pattern='*.log', recursive=true, paths=null)]\n```"
    ),
    "glm-example-in-fence": (
        "GLM escapes it like this:\n```\n<tool_call>get_weather\\n<arg_key>city</arg_key>\\n"
        "<arg_value>Paris</arg_value>\\n</tool_call>\n```"
    ),
    "json-answer-object": '{"city": "Paris", "days": 3, "forecast": ["sun", "rain", "sun"]}',
    "semicolons-in-prose": "First I'll check the weather; then I'll search the files; finally I'll write it up.",
}


def recovered_calls(write_session, reply):
    """The calls the tool-markup findings of `reply` would recover, in order: (name, arguments)."""
    return [
        (call.name, call.arguments)
        for finding in markup_findings(write_session, reply)
        if finding.fix
        for call in finding.fix.add_calls
    ]


def markup_findings(write_session, reply):
    """The tool-markup findings of `reply`, answering the question."""
    path = write_session([{"role": "user", "content": QUESTION}, {"role": "assistant", "content": reply}], TOOLS)
    (result,) = scan_file(path)
    return [finding for finding in result.findings if finding.kind == KIND]


def outcome(write_session, reply, expected):
    """ "right", "missed" (nothing recovered) or "wrong" (other calls, or other arguments)."""
    found = recovered_calls(write_session, reply)
    return "right" if found == expected else "missed" if not found else "wrong"


@pytest.mark.parametrize("reply, expected", CASES.values(), ids=CASES.keys())
def test_each_case_is_recovered_right(write_session, reply, expected):
    assert recovered_calls(write_session, reply) == expected


@pytest.mark.parametrize("reply", CLEAN.values(), ids=CLEAN.keys())
def test_each_look_alike_stays_clean(write_session, reply):
    assert markup_findings(write_session, reply) == []


def test_no_case_is_missed_or_recovered_wrong(write_session):
    outcomes = [outcome(write_session, reply, expected) for reply, expected in CASES.values()]
    assert len(outcomes) >= 50
    assert (outcomes.count("missed"), outcomes.count("wrong")) == (0, 0)
