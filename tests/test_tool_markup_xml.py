"""Detector `tool-markup`, families whose parameters are XML-style elements: Qwen3-Coder,
Functionary, Seed-OSS, GLM-4.5/4.6/4.7, Anthropic-style `<invoke>`, MiniMax, OLMo 3 and DeepSeek
DSML. Text values are typed by the tool's schema."""

from test_tool_markup import TOOLS, assert_recovered, findings_of, one_finding


def test_qwen3_coder_xml_values_typed_by_schema(write_session):
    block = ("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
             "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>")
    reply = f"I'll fetch the forecast.\n\n{block}"
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "get_weather", {"city": "Paris", "days": 3}, "\n\n" + block,
                      "I'll fetch the forecast.")


def test_anthropic_style_function_calls_xml(write_session):
    block = ('<function_calls>\n<invoke name="search_files">\n<parameter name="pattern">TODO</parameter>\n'
             '<parameter name="recursive">false</parameter>\n<parameter name="paths">["src", "tests"]</parameter>\n'
             '</invoke>\n</function_calls>')
    reply = f"I'll search for TODO markers.\n\n{block}"
    finding = one_finding(write_session, reply)
    assert_recovered(finding, reply, "search_files",
                      {"pattern": "TODO", "recursive": False, "paths": ["src", "tests"]}, "\n\n" + block,
                      "I'll search for TODO markers.")


def test_minimax_tool_call_with_two_invokes(write_session):
    reply = ('<minimax:tool_call>\n<invoke name="get_weather"><parameter name="city">Bern</parameter></invoke>\n'
             '<invoke name="run_code"><parameter name="code">print(1)</parameter></invoke>\n</minimax:tool_call>')
    finding = one_finding(write_session, reply)
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Bern"}), ("run_code", {"code": "print(1)"})]
    assert finding.fix.apply_to_text(reply) == ""


def test_functionary_function_tag_with_json(write_session):
    block = '<function=get_weather>{"city": "Quito", "days": 4}</function>'
    reply = f"Fetching the Quito forecast.\n{block}\nI'll summarise it next."
    finding = one_finding(write_session, reply, family="functionary")
    assert_recovered(finding, reply, "get_weather", {"city": "Quito", "days": 4}, block + "\n",
                     "Fetching the Quito forecast.\nI'll summarise it next.")


def test_glm_arg_key_value_pairs_typed_by_schema(write_session):
    block = ("<tool_call>search_files\n<arg_key>pattern</arg_key>\n<arg_value>*.log</arg_value>\n"
             "<arg_key>recursive</arg_key>\n<arg_value>true</arg_value>\n"
             '<arg_key>paths</arg_key>\n<arg_value>["var", "tmp"]</arg_value>\n</tool_call>')
    reply = f"I'll look for log files under var and tmp.\n{block}"
    finding = one_finding(write_session, reply, family="glm")
    assert_recovered(finding, reply, "search_files", {"pattern": "*.log", "recursive": True, "paths": ["var", "tmp"]},
                     "\n" + block, "I'll look for log files under var and tmp.")


def test_glm_values_of_an_unknown_tool_read_as_json_where_they_are_json(write_session):
    block = ("<tool_call>create_ticket<arg_key>title</arg_key><arg_value>Login fails</arg_value>"
             "<arg_key>priority</arg_key><arg_value>2</arg_value>"
             "<arg_key>labels</arg_key><arg_value>[\"auth\", \"bug\"]</arg_value></tool_call>")
    reply = f"Filing it now.{block}"
    finding = one_finding(write_session, reply, family="glm")
    assert finding.fix.add_calls[0].arguments == {"title": "Login fails", "priority": 2, "labels": ["auth", "bug"]}
    assert finding.fix.apply_to_text(reply) == "Filing it now."


def test_glm_string_parameter_that_looks_like_a_number_stays_text(write_session):
    block = "<tool_call>run_code\n<arg_key>code</arg_key>\n<arg_value>42</arg_value>\n</tool_call>"
    reply = f"Running the snippet.\n\n{block}\n\nDone."
    finding = one_finding(write_session, reply, family="glm")
    assert_recovered(finding, reply, "run_code", {"code": "42"}, block + "\n\n", "Running the snippet.\n\nDone.")


def test_seed_oss_function_in_its_own_wrapper(write_session):
    block = ("<seed:tool_call>\n<function=get_weather>\n<parameter=city>Hanoi</parameter>\n"
             "<parameter=days>7</parameter>\n</function>\n</seed:tool_call>")
    reply = f"A week in Hanoi, let me see.\n{block}\nHere is what I found:"
    finding = one_finding(write_session, reply, family="seed-oss")
    assert_recovered(finding, reply, "get_weather", {"city": "Hanoi", "days": 7}, block + "\n",
                     "A week in Hanoi, let me see.\nHere is what I found:")


def test_olmo_function_calls_with_one_pythonic_call_per_line(write_session):
    block = ('<function_calls>\nget_weather(city="Lagos", days=2)\n'
             'search_files(pattern="forecast", recursive=True)\n</function_calls>')
    reply = f"Let me do both.\n\n{block}"
    finding = one_finding(write_session, reply, family="olmo")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Lagos", "days": 2}), ("search_files", {"pattern": "forecast", "recursive": True})]
    assert reply[slice(*finding.span)] == "\n\n" + block
    assert finding.fix.apply_to_text(reply) == "Let me do both."


def test_deepseek_dsml_string_false_holds_json(write_session):
    block = ('<｜DSML｜function_calls>\n<｜DSML｜invoke name="search_files">\n'
             '<｜DSML｜parameter name="pattern" string="true">TODO</｜DSML｜parameter>\n'
             '<｜DSML｜parameter name="recursive" string="false">true</｜DSML｜parameter>\n'
             '<｜DSML｜parameter name="paths" string="false">["src"]</｜DSML｜parameter>\n'
             '</｜DSML｜invoke>\n</｜DSML｜function_calls>')
    reply = f"Searching src for TODOs.\n\n{block}"
    finding = one_finding(write_session, reply, family="deepseek-dsml")
    assert_recovered(finding, reply, "search_files", {"pattern": "TODO", "recursive": True, "paths": ["src"]},
                     "\n\n" + block, "Searching src for TODOs.")


def test_deepseek_dsml_string_true_keeps_text_for_an_unknown_tool(write_session):
    block = ('<｜DSML｜tool_calls><｜DSML｜invoke name="send_sms">'
             '<｜DSML｜parameter name="to" string="true">0612</｜DSML｜parameter>'
             '<｜DSML｜parameter name="retries" string="false">3</｜DSML｜parameter>'
             '</｜DSML｜invoke></｜DSML｜tool_calls>')
    reply = f"Texting them.{block}"
    finding = one_finding(write_session, reply, family="deepseek-dsml")
    assert finding.fix.add_calls[0].arguments == {"to": "0612", "retries": 3}


def test_prose_about_glm_tags_is_not_a_call(write_session):
    reply = "GLM writes <tool_call> then the name, with each argument in <arg_key> and <arg_value> pairs."
    path = write_session([{"role": "user", "content": "How does GLM call tools?"},
                          {"role": "assistant", "content": reply}], TOOLS)
    assert findings_of(path) == []
