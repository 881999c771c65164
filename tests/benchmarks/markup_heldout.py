"""Held-out corpus for `tool-markup`: model output the family readers were not written from.

Each leak is a reply (the text an inference server left unparsed) with the calls it must recover
exactly, drawn from the inputs of Ollama's model output parser tests (`model/parsers/*_test.go`:
DeepSeek V3, Cogito, Ministral, Nemotron 3 Nano, GLM 4.6 / 4.7, Laguna, LFM2, Gemma 4, Cohere, OLMo 3,
Qwen 3.5) from Ollama's LongCat-Flash, MiniCPM 5, Glimmer and Command R parsers, vLLM's LongCat parser, ai-dynamo's MiniMax
recovery, and the output readers of GLM-4's server demo and ChatGLM3 (`process_response`),
written out here as replies; each clean reply is text that shows or talks about markup but calls nothing, and
must give no finding. `bench_markup.py` measures both.
"""

from __future__ import annotations

from typing import Any


def _tool(name: str, **properties: str) -> dict[str, Any]:
    """An OpenAI function tool `name` whose parameters have the JSON types `properties`."""
    schema = {key: {"type": kind} for key, kind in properties.items()}
    return {"type": "function", "function": {"name": name, "parameters": {"type": "object", "properties": schema}}}


TOOLS = [
    _tool("get_weather", location="string", city="string", days="integer", units="string"),
    _tool("search", query="string", language="string"),
    _tool("process_data", items="array", config="object"),
    _tool("calculate", count="integer", enabled="boolean"),
    _tool("create_entities", entities="array"),
    _tool("write", content="string"),
    _tool("set_temp", value="number"),
    _tool("toggle", enabled="boolean"),
    _tool("ping"),
    _tool("get_candidate_status", candidate_id="string"),
    _tool("get_time"),
    _tool("set_price", amount="number"),
    _tool("book_flight", **{"from": "string", "to": "string", "date": "string"}),
    {
        "type": "function",
        "function": {
            "name": "search_products",
            "parameters": {
                "type": "object",
                "properties": {
                    "filters": {
                        "type": "object",
                        "properties": {"max_price": {"type": "number"}, "in_stock": {"type": "boolean"}},
                    },
                    "ids": {"type": "array", "items": {"type": "integer"}},
                },
            },
        },
    },
]

DS = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
DS_END = "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"

# (source, reply, calls it must recover: (name, arguments) in order)
LEAKS: list[tuple[str, str, list[tuple[str, dict[str, Any]]]]] = [
    (
        "ollama deepseek3",
        f'I\'ll check the weather.{DS}get_weather<｜tool▁sep｜>{{"location":"Paris"}}{DS_END}',
        [("get_weather", {"location": "Paris"})],
    ),
    (
        "ollama deepseek3",
        f'Getting weather for both cities.{DS}get_weather<｜tool▁sep｜>{{"location":"Paris"}}<｜tool▁call▁end｜>'
        f'<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{{"location":"London"}}{DS_END}',
        [("get_weather", {"location": "Paris"}), ("get_weather", {"location": "London"})],
    ),
    (
        "ollama deepseek3",
        f'Processing data.{DS}process_data<｜tool▁sep｜>{{"items":["item1","item2"],'
        f'"config":{{"enabled":true,"threshold":0.95}}}}{DS_END}',
        [("process_data", {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}})],
    ),
    (
        "ollama deepseek3",
        f'Searching for information.{DS}search<｜tool▁sep｜>{{"query":"北京天气","language":"中文"}}{DS_END}',
        [("search", {"query": "北京天气", "language": "中文"})],
    ),
    (
        "ollama deepseek3",
        f'I\'ll help you.{DS}get_weather<｜tool▁sep｜>{{"location":"Tokyo"}}{DS_END}完成 ✅',
        [("get_weather", {"location": "Tokyo"})],
    ),
    (
        "ollama cogito",
        f'{DS}function<｜tool▁sep｜>get_weather\n```json\n{{"location": "Paris"}}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
        [("get_weather", {"location": "Paris"})],
    ),
    (
        "ollama ministral",
        '[TOOL_CALLS]get_weather[ARGS]{"location": "San Francisco"}',
        [("get_weather", {"location": "San Francisco"})],
    ),
    (
        "ollama ministral",
        '[TOOL_CALLS]create_entities[ARGS]{"entities": [{"entityType": "Person", "name": "Jack"}]}',
        [("create_entities", {"entities": [{"entityType": "Person", "name": "Jack"}]})],
    ),
    (
        "ollama ministral",
        '[TOOL_CALLS]write[ARGS]{"content": "line1\\nline2\\nline3"}',
        [("write", {"content": "line1\nline2\nline3"})],
    ),
    (
        "ollama nemotron3nano",
        "I'll check for you.\n<tool_call>\n<function=search>\n<parameter=query>\ntest\n</parameter>\n</function>\n</tool_call>",
        [("search", {"query": "test"})],
    ),
    (
        "ollama glm47",
        "Answer<tool_call>calculate<arg_key>count</arg_key><arg_value>3</arg_value>"
        "<arg_key>enabled</arg_key><arg_value>true</arg_value></tool_call>",
        [("calculate", {"count": 3, "enabled": True})],
    ),
    (
        "ollama laguna",
        "<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Paris</arg_value>\n"
        "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
        [("get_weather", {"location": "Paris", "days": 3})],
    ),
    (
        "ollama laguna",
        '{"name":"get_weather","arguments":{"location":"Paris","days":3}}',
        [("get_weather", {"location": "Paris", "days": 3})],
    ),
    (
        "ollama laguna",
        'Let me call the weather tool.\n{"name":"get_weather","arguments":{"location":"Paris"}}',
        [("get_weather", {"location": "Paris"})],
    ),
    (
        "ollama lfm2",
        "Processing data.<|tool_call_start|>[process_data(items=['item1','item2'], "
        "config={'enabled': True, 'threshold': 0.95})]<|tool_call_end|>",
        [("process_data", {"items": ["item1", "item2"], "config": {"enabled": True, "threshold": 0.95}})],
    ),
    (
        "ollama lfm2",
        "Pinging server.<|tool_call_start|>[ping()]<|tool_call_end|>",
        [("ping", {})],
    ),
    (
        "ollama lfm2",
        'Let me check that.<|tool_call_start|>[get_candidate_status(candidate_id="12345")]<|tool_call_end|>',
        [("get_candidate_status", {"candidate_id": "12345"})],
    ),
    (
        "ollama gemma4",
        '<|tool_call>call:get_weather{location:<|"|>Paris<|"|>,units:<|"|>metric<|"|>}<tool_call|>',
        [("get_weather", {"location": "Paris", "units": "metric"})],
    ),
    ("ollama gemma4", "<|tool_call>call:set_temp{value:42}<tool_call|>", [("set_temp", {"value": 42})]),
    ("ollama gemma4", "<|tool_call>call:toggle{enabled:true}<tool_call|>", [("toggle", {"enabled": True})]),
    (
        "ollama glm46",
        "<think>Let me call a tool</think>here is text<tool_call>get_weather\n<arg_key>location</arg_key>\n"
        "<arg_value>Oslo</arg_value>\n</tool_call>",
        [("get_weather", {"location": "Oslo"})],
    ),
    (
        "ollama cohere",
        'plan<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", '
        '"parameters": {"city": "Paris"}},\n    {"tool_call_id": "1", "tool_name": "get_time", "parameters": {}}\n]'
        "<|END_ACTION|>",
        [("get_weather", {"city": "Paris"}), ("get_time", {})],
    ),
    (
        "ollama olmo3",
        'Let me check the weather.<function_calls>get_weather(location="NYC")</function_calls>',
        [("get_weather", {"location": "NYC"})],
    ),
    (
        "ollama olmo3",
        '<function_calls>get_weather(location="San Francisco")\nget_weather(location="New York")</function_calls>',
        [("get_weather", {"location": "San Francisco"}), ("get_weather", {"location": "New York"})],
    ),
    (
        "ollama olmo3",
        '<function_calls>book_flight(from="SFO", to="NYC", date="2024-01-15")</function_calls>',
        [("book_flight", {"from": "SFO", "to": "NYC", "date": "2024-01-15"})],
    ),
    ("ollama olmo3", "<function_calls>set_price(amount=19.99)</function_calls>", [("set_price", {"amount": 19.99})]),
    (
        "ollama qwen35",
        "<tool_call><function=get_weather><parameter=location>\nSan Francisco\n</parameter><parameter=days>\n3\n"
        "</parameter></function></tool_call>",
        [("get_weather", {"location": "San Francisco", "days": 3})],
    ),
    (
        "ollama qwen35",
        "Need weather lookup</think><tool_call><function=get_weather><parameter=location>\nSF\n</parameter>"
        "</function></tool_call>",
        [("get_weather", {"location": "SF"})],
    ),
    (
        "qwen3-coder, an object parameter typed inside",
        "<tool_call>\n<function=search_products>\n<parameter=filters>\n"
        '{"max_price": "20", "in_stock": "true"}\n</parameter>\n<parameter=ids>\n["3", "4"]\n'
        "</parameter>\n</function>\n</tool_call>",
        [("search_products", {"filters": {"max_price": 20, "in_stock": True}, "ids": [3, 4]})],
    ),
    (
        "minimax-m3, nested elements typed inside",
        'Searching.\n]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="search_products">\n'
        "]<]minimax[>[<filters>\n]<]minimax[>[<max_price>12.5]<]minimax[>[</max_price>\n"
        "]<]minimax[>[</filters>\n]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>",
        [("search_products", {"filters": {"max_price": 12.5}})],
    ),
    (
        "ai-dynamo minimax, wrapper missing",
        'I will look that up.\n<invoke name="search">\n<parameter name="query">MiniMax M2 release</parameter>\n'
        "</invoke>\n</minimax:tool_call>",
        [("search", {"query": "MiniMax M2 release"})],
    ),
    (
        "minimax tool calling guide, opening dropped",
        '<invoke name="get_weather">\n<parameter name="location">Shanghai</parameter>\n<parameter name="days">2'
        '</parameter>\n</invoke>\n<invoke name="get_time">\n</invoke>\n</minimax:tool_call>',
        [("get_weather", {"location": "Shanghai", "days": 2}), ("get_time", {})],
    ),
    (
        "ollama longcatflash parser",
        "Let me check.<longcat_tool_call>get_weather\n<longcat_arg_key>location</longcat_arg_key>\n"
        "<longcat_arg_value>Hangzhou</longcat_arg_value>\n</longcat_tool_call>",
        [("get_weather", {"location": "Hangzhou"})],
    ),
    (
        "vllm longcat parser",
        '<longcat_tool_call>\n{"name": "search", "arguments": {"query": "LongCat-Flash release"}}\n</longcat_tool_call>',
        [("search", {"query": "LongCat-Flash release"})],
    ),
    (
        "ollama minicpm5 parser",
        '<tool_call><function name="calculate"><param name="count">7</param><param name="enabled">true</param>'
        "</function></tool_call>",
        [("calculate", {"count": 7, "enabled": True})],
    ),
    (
        "ollama minicpm5 parser, CDATA",
        'Writing it.\n<function name="write"><param name="content"><![CDATA[line 1\n  line 2]]></param></function>',
        [("write", {"content": "line 1\n  line 2"})],
    ),
    (
        "ollama glimmer parser",
        '<atem:function_calls>\n<atem:invoke name="search">\n<atem:parameter name="query">glimmer release notes'
        "</atem:parameter>\n</atem:invoke>\n</atem:function_calls>",
        [("search", {"query": "glimmer release notes"})],
    ),
    (
        "cohere command-r tool use",
        'Action: ```json\n[\n    {\n        "tool_name": "get_weather",\n        "parameters": {\n'
        '            "location": "Toronto"\n        }\n    }\n]\n```',
        [("get_weather", {"location": "Toronto"})],
    ),
    (
        "glm-4 server demo",
        'get_weather\n{"location": "Beijing", "days": 2}',
        [("get_weather", {"location": "Beijing", "days": 2})],
    ),
    (
        "glm-4 server demo",
        'search\n{\n  "query": "weather in Shanghai",\n  "language": "en"\n}\n',
        [("search", {"query": "weather in Shanghai", "language": "en"})],
    ),
    (
        "chatglm3 process_response",
        "get_weather\n```python\ntool_call(location='Beijing', units='celsius')\n```",
        [("get_weather", {"location": "Beijing", "units": "celsius"})],
    ),
    (
        "chatglm3 process_response",
        "Let me work that out.<|assistant|>calculate\n```python\ntool_call(count=3, enabled=True)\n```",
        [("calculate", {"count": 3, "enabled": True})],
    ),
]

CLEAN: list[tuple[str, str]] = [
    (
        "ollama deepseek3",
        "Here's the weather: <｜tool▁output▁begin｜>Temperature: 22°C, Sunny<｜tool▁output▁end｜> Hope that helps!",
    ),
    ("docs", 'To call a tool, Hermes models write `<tool_call>{"name": ..., "arguments": ...}</tool_call>`.'),
    (
        "docs",
        "An example of the format:\n\n```xml\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n"
        "</parameter>\n</function>\n</tool_call>\n```\n\nThe server parses that into a call.",
    ),
    ("reasoning", "I could use the get_weather tool, but the user only asked about the history of Paris."),
    ("docs", "Mistral marks calls with the `[TOOL_CALLS]` token followed by the name and `[ARGS]`."),
    ("code", '```python\nprint("<|tool_call_begin|>")\n```'),
    ("prose", 'The config is {"name": "prod", "replicas": 3}, which looks right to me.'),
    ("prose", "We measured [1, 2, 3] and {a: 1} in the log."),
    (
        "docs",
        "GLM writes `<tool_call>NAME<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>`; "
        "DeepSeek uses `<｜tool▁calls▁begin｜>`.",
    ),
    ("reasoning", "<think>Should I call search? No.</think>The answer is 42."),
    ("ollama qwen3coder", "abc\n<tool_call>def</tool_call>"),
    ("code", "In the REPL:\n>>> print({'name': 'get_weather'})\n{'name': 'get_weather'}"),
    (
        "docs",
        'A call is a line like\n{"name": "get_weather", "arguments": {"location": "Paris"}}\nthat the server parses.',
    ),
    ("docs", "Apertus wraps calls in `<|tools_prefix|>` and `<|tools_suffix|>`; Functionary v3.2 writes `>>>name`."),
    ("docs", 'Llama 3.1 writes `<|python_tag|>brave_search.call(query="...")` for its built-in tools.'),
    ("code", '```js\nconst s = "</arg_value></tool_call>";\n```'),
    ("prose", 'The result was {"status": "ok"}'),
    (
        "docs",
        "ChatGLM3 answers with the tool's name, then a fence:\nget_weather\n```python\ntool_call(location='Beijing')\n```",
    ),
    ("prose", 'get_weather\n{"location": "Beijing"}\nis what the model printed before the fix.'),
    ("code", "main\n```python\nprint('hello')\n```"),
    (
        "docs",
        'Claude-style markup wraps `<invoke name="search">` in `<function_calls>`; MiniMax ends with '
        "`</minimax:tool_call>`.",
    ),
    ("prose", '<invoke name="search"> appears in the log, and then the stream stopped.'),
    ("docs", 'MiniCPM 5 calls look like <function name="tool_name"> with <param> children.'),
    ("prose", "Action: I reviewed the diff and nothing needs to change."),
    (
        "docs",
        "Command R answers without a tool by calling `directly-answer`:\nAction: ```json\n"
        '[{"tool_name": "directly-answer", "parameters": {}}]\n```',
    ),
    ("html", '<function name="search"></function> on its own is not valid HTML, and <param> is empty.'),
]
