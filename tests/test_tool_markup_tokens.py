"""Detector `tool-markup`, families written with special tokens: DeepSeek V3 / R1 and V3.1
(full-width bars, U+2581), Kimi K2, gpt-oss Harmony and Gemma 4 / FunctionGemma; and `inspector fix`
on a session that leaks several new families, re-scanned clean."""

import json

from test_tool_markup import KIND, TOOLS, assert_recovered, findings_of, one_finding

from inspector.cli import main


DEEPSEEK_V3 = ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n'
               '```json\n{"city": "Tokyo", "days": 3}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>')
KIMI = ('<|tool_calls_section_begin|>\n<|tool_call_begin|>functions.search_files:0<|tool_call_argument_begin|>'
        '{"pattern": "*.ts", "recursive": true}<|tool_call_end|>\n<|tool_calls_section_end|>')
HARMONY = ('<|channel|>commentary to=functions.run_code <|constrain|>json<|message|>'
           '{"code": "print(2 ** 10)"}<|call|>')
GEMMA = '<|tool_call>call:get_weather{city:<|"|>Austin, TX<|"|>,days:2}<tool_call|>'


def test_deepseek_v3_call_with_a_json_fence(write_session):
    reply = f"Let me look up Tokyo's forecast.\n\n{DEEPSEEK_V3}"
    finding = one_finding(write_session, reply, family="deepseek")
    assert_recovered(finding, reply, "get_weather", {"city": "Tokyo", "days": 3}, "\n\n" + DEEPSEEK_V3,
                     "Let me look up Tokyo's forecast.")


def test_deepseek_v31_two_calls_without_fences(write_session):
    block = ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Seoul"}<｜tool▁call▁end｜>'
             '<｜tool▁call▁begin｜>run_code<｜tool▁sep｜>{"code": "print(1)"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>')
    reply = f"Doing both now.{block}\nResults follow."
    finding = one_finding(write_session, reply, family="deepseek")
    assert [(c.name, c.arguments) for c in finding.fix.add_calls] == [
        ("get_weather", {"city": "Seoul"}), ("run_code", {"code": "print(1)"})]
    assert reply[slice(*finding.span)] == block + "\n"
    assert finding.fix.apply_to_text(reply) == "Doing both now.Results follow."


def test_kimi_k2_section_with_a_numbered_call(write_session):
    reply = f"I'll list the TypeScript files.\n{KIMI}"
    finding = one_finding(write_session, reply, family="kimi-k2")
    assert_recovered(finding, reply, "search_files", {"pattern": "*.ts", "recursive": True}, "\n" + KIMI,
                     "I'll list the TypeScript files.")


def test_gpt_oss_harmony_commentary_call(write_session):
    reply = f"{HARMONY}\n\nI asked the interpreter for 2 to the 10th."
    finding = one_finding(write_session, reply, family="harmony")
    assert_recovered(finding, reply, "run_code", {"code": "print(2 ** 10)"}, HARMONY + "\n\n",
                     "I asked the interpreter for 2 to the 10th.")


def test_gpt_oss_harmony_with_its_start_header(write_session):
    block = ('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>'
             '{"city": "Perth", "days": 2}<|call|>')
    reply = f"Checking Perth.\n{block}"
    finding = one_finding(write_session, reply, family="harmony")
    assert_recovered(finding, reply, "get_weather", {"city": "Perth", "days": 2}, "\n" + block, "Checking Perth.")


def test_harmony_final_channel_is_not_a_call(write_session):
    reply = "<|channel|>final<|message|>It will be sunny in Paris."
    path = write_session([{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": reply}], TOOLS)
    assert findings_of(path) == []


def test_gemma4_call_with_quote_tokens_and_unquoted_keys(write_session):
    reply = f"Let me check Austin for you. {GEMMA} Give me a second."
    finding = one_finding(write_session, reply, family="gemma")
    assert_recovered(finding, reply, "get_weather", {"city": "Austin, TX", "days": 2}, GEMMA + " ",
                     "Let me check Austin for you. Give me a second.")


def test_function_gemma_escape_tokens(write_session):
    block = ('<start_function_call>call:search_files{pattern:<escape>{a,b}.txt<escape>,recursive:false,'
             'paths:[<escape>home<escape>]}<end_function_call>')
    reply = f"Searching.\n{block}"
    finding = one_finding(write_session, reply, family="gemma")
    assert_recovered(finding, reply, "search_files", {"pattern": "{a,b}.txt", "recursive": False, "paths": ["home"]},
                     "\n" + block, "Searching.")


def test_special_tokens_in_inline_code_are_not_calls(write_session):
    reply = ("DeepSeek opens calls with `<｜tool▁calls▁begin｜>`, Kimi with `<|tool_calls_section_begin|>`, "
             "gpt-oss addresses them with `<|channel|>commentary to=functions.x`, Gemma with `<|tool_call>`.")
    path = write_session([{"role": "user", "content": "Compare the formats."},
                          {"role": "assistant", "content": reply}], TOOLS)
    assert findings_of(path) == []


def test_fix_of_new_families_rescans_clean_with_the_calls_structured(write_session, tmp_path):
    glm = "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Lima</arg_value></tool_call>"
    path = write_session([
        {"role": "user", "content": "Tokyo first."},
        {"role": "assistant", "content": f"On it.\n{DEEPSEEK_V3}"},
        {"role": "user", "content": "Now the TypeScript files."},
        {"role": "assistant", "content": f"Listing them.\n{KIMI}"},
        {"role": "user", "content": "And 2 ** 10?"},
        {"role": "assistant", "content": f"{HARMONY}\nComputing."},
        {"role": "user", "content": "Austin and Lima too."},
        {"role": "assistant", "content": f"Both. {GEMMA}\n{glm}"},
        {"role": "user", "content": "And Paris?"},
        {"role": "assistant", "content": 'Sure.\n[get_weather(city="Paris")]'},
    ], TOOLS)
    assert len(findings_of(path)) == 6
    out = tmp_path / "fixed.json"
    assert main(["fix", str(path), "--accept", KIND, "-o", str(out)]) == 1
    assert findings_of(out) == []
    messages = json.loads(out.read_text())["messages"]
    calls = [(c["function"]["name"], json.loads(c["function"]["arguments"]))
             for m in messages for c in m.get("tool_calls") or []]
    assert calls == [("get_weather", {"city": "Tokyo", "days": 3}),
                     ("search_files", {"pattern": "*.ts", "recursive": True}),
                     ("run_code", {"code": "print(2 ** 10)"}),
                     ("get_weather", {"city": "Austin, TX", "days": 2}), ("get_weather", {"city": "Lima"}),
                     ("get_weather", {"city": "Paris"})]
    texts = [m["content"] for m in messages if m["role"] == "assistant" and m.get("content")]
    assert texts == ["On it.", "Listing them.", "Computing.", "Both.", "Sure."]
