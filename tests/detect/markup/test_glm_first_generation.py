"""Detector `tool-markup`, the first GLM generations: the tool's name alone on a line, then its
arguments. GLM-4 (`glm-4-9b-chat`) writes them as a JSON object; ChatGLM3 as `tool_call(k=v, ...)`
in a Python fence (read with `ast`, never run). Each is read where the model's turn begins: the
whole reply (after its thinking), or after the role token `<|assistant|>`."""

import pytest

from tests.helpers.markup import TOOLS, markup_findings, recovered


@pytest.mark.parametrize(
    "family, reply, calls, cleaned",
    [
        pytest.param(
            "chatglm3",
            "get_weather\n```python\ntool_call(city='Paris', days=3)\n```",
            [("get_weather", {"city": "Paris", "days": 3})],
            None,
            id="chatglm3-whole-reply",
        ),
        pytest.param(
            "chatglm3",
            'Let me look.<|assistant|>get_weather\n```python\ntool_call(city="Oslo", days="2")\n```',
            [("get_weather", {"city": "Oslo", "days": 2})],
            "Let me look.",
            id="chatglm3-after-role-token",
        ),
        pytest.param(
            "glm-4",
            'get_weather\n{"city": "Paris", "days": "3"}',
            [("get_weather", {"city": "Paris", "days": 3})],
            None,
            id="glm4-whole-reply",
        ),
        pytest.param(
            "glm-4",
            '<think>Paris, then.</think>\nget_weather\n{"city": "Paris"}\n',
            [("get_weather", {"city": "Paris"})],
            None,
            id="glm4-after-thinking",
        ),
        pytest.param(
            "glm-4",
            'Checking Rome.\n<|assistant|>get_weather\n{"city": "Rome"}',
            [("get_weather", {"city": "Rome"})],
            "Checking Rome.",
            id="glm4-after-role-token",
        ),
    ],
)
def test_first_generation_glm_calls_are_recovered(write_session, family, reply, calls, cleaned):
    found, fixed = recovered(write_session, reply, family)
    assert found == calls
    if cleaned is not None:
        assert fixed == cleaned


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param('config\n{"name": "prod", "replicas": 3}', id="json-after-a-word-that-is-no-tool"),
        pytest.param('get_weather\n{"city": "Paris"}\nis how the call would look.', id="prose-after-the-json"),
        pytest.param("ChatGLM3 writes:\nget_weather\n```python\ntool_call(city='Paris')\n```", id="shown-after-prose"),
        pytest.param("example\n```python\nprint('hi')\n```", id="python-fence-that-is-no-call"),
        pytest.param("<|assistant|>\nHello! How can I help?", id="role-token-then-prose"),
        pytest.param("The role token `<|assistant|>get_weather` opens the turn.", id="inline-code"),
    ],
)
def test_look_alikes_stay_clean(write_session, reply):
    path = write_session([{"role": "user", "content": "Hi"}, {"role": "assistant", "content": reply}], TOOLS)
    assert markup_findings(path) == []
