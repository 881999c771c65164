"""Detector `secret` looks closely only at the turns a quick look over many at once points at
(`secret_gate`): on a session of prose with secrets of every kind planted in texts, calls'
arguments and their keys, results, ids and records' fields, it finds exactly what the search
of every turn finds, while passing over most turns; and hostile text that nearly holds what
the quick look seeks is read in time linear in its size."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis.strategies import lists, sampled_from

from inspector.detect import secret
from tests.helpers.files import write_json
from tests.helpers.properties import examples, replay
from tests.helpers.scanning import findings_of
from tests.helpers.timing import cpu_time

KIND = "secret"
SECRETS = (
    "sk-proj-Abc123def456GHI789jkl012MNO345pqr678",
    "sk-ant-api03-Zq9Xw8Vu7Ts6Rq5Po4",
    "ghp_1234567890abcdefghijABCDEFGHIJ123456",
    "github_pat_11ABCDEFG0123456789_abcdefghij",
    "xoxb-1234567890-abcdefABCDEF",
    "AKIAIOSFODNN7EXAMPLE",
    "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl",
    "Authorization: Bearer abcdefghijklmnop1234",
    "Bearer abc.def.ghi.jklmnop/qr",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
    "api_key=Zx9Yw8Vu7Ts6",
    'PASSWORD: "s3cr3t-Pass!"',
    "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dA",
)
LOOK_ALIKES = (
    "sk-",
    "ghp_",
    "AKIA",
    "eyJ",
    "earer",
    "-----BEGIN",
    "key:",
    "token=",
    "call_0000017",
    "A1b2C3d4E5f6",
    "FACTORY_DISABLE_SETTINGS_PERSISTENCE",  # an environment variable's name: one case, no digit
    "test_every_session_is_claimed_by_one_format",
    "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dAx9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dAx9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dAx9ZqP2mL7",
)
WORDS = ("the", "garden", "Canal", "booked", "tomorrow", "journal", "café", "naïve", "｜", "over.", "is:", "a=b")


def _prose(rng: random.Random, planted: float) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(3, 40))]
    if rng.random() < planted:
        words.insert(rng.randint(0, len(words)), rng.choice(SECRETS))
    if rng.random() < 0.3:
        words.insert(rng.randint(0, len(words)), rng.choice(LOOK_ALIKES))
    return " ".join(words)


def _messages(rng: random.Random, count: int) -> list[dict]:
    """Messages of prose with now and then a secret or a look-alike: in a text, a call's
    arguments (as a value, under a key named like a secret, as a key), a result, an id, a field."""
    messages: list[dict] = []
    for number in range(count):
        messages.append({"role": "user", "content": _prose(rng, 0.05)})
        call_id = rng.choice(SECRETS[:4]) if rng.random() < 0.02 else f"call_{number:07d}"
        arguments = {"query": _prose(rng, 0.05)}
        if rng.random() < 0.05:
            arguments[rng.choice(("api_key", "password", "client_secret", "max_tokens"))] = "Zx9Yw8Vu7Ts6"
        if rng.random() < 0.02:
            arguments[rng.choice(SECRETS)] = "value"
        call = {"id": call_id, "type": "function", "function": {"name": "search", "arguments": json.dumps(arguments)}}
        messages.append({"role": "assistant", "content": _prose(rng, 0.02), "tool_calls": [call]})
        result = {"role": "tool", "tool_call_id": call_id, "content": _prose(rng, 0.05)}
        if rng.random() < 0.02:
            result["name"] = rng.choice(SECRETS)
        messages.append(result)
    return messages


@pytest.fixture(scope="module")
def planted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("planted") / "session.json"
    return write_json(path, {"messages": _messages(random.Random(7), 400)})


def _shown(path: Path) -> list[tuple]:
    return [(f.turn, f.message, f.span, f.fix.masks if f.fix else None) for f in findings_of(path, KIND)]


def test_what_is_found_is_what_a_search_of_every_turn_finds(planted, monkeypatch):
    found = _shown(planted)
    monkeypatch.setattr(secret, "turns_to_search", lambda turns: range(len(turns)))
    assert found == _shown(planted)
    assert len({turn for turn, *_ in found}) > 100  # every kind of secret, in every place, many times


def test_what_earlier_sessions_taught_the_quick_look_hides_nothing_in_later_ones(tmp_path, monkeypatch):
    """What the quick look learnt to hold nothing (keys, long runs, records' fields) is kept for the
    next session a process scans, within bounds (small here, so it is emptied again and again):
    sessions scanned one after another, their secrets in the keys, runs and fields earlier ones
    held plain, each find what a search of every turn finds."""
    from inspector.detect import secret_gate

    monkeypatch.setattr(secret_gate, "KNOWN_KEPT", 16)
    monkeypatch.setattr(secret_gate, "KNOWN_SIZE", 400)
    monkeypatch.setattr(secret_gate, "PLAIN_VALUES_KEPT", 16)
    paths = [
        write_json(tmp_path / f"{seed}.json", {"messages": _messages(random.Random(seed), 80)}) for seed in range(6)
    ]
    found = [_shown(path) for path in paths]
    monkeypatch.setattr(secret, "turns_to_search", lambda turns: range(len(turns)))
    assert found == [_shown(path) for path in paths]
    assert all(found)


def test_what_is_kept_across_sessions_is_bounded():
    """A session of long runs (150,000 characters each, none a token) leaves nothing of them held
    once its quick look is done: what is kept for the next session is bounded."""
    import tracemalloc

    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import USER, Turn

    turns = [Turn(position, USER, f"see {'Ab1' * 50_000}{position} there") for position in range(40)]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert list(turns_to_search(turns)) == []
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 1_000_000  # the runs looked at were 6 MB


def test_most_turns_are_passed_over(planted):
    from inspector.detect.secret_gate import turns_to_search
    from inspector.sources import load_sessions

    (session,) = load_sessions(planted)
    assert len(list(turns_to_search(session.turns))) < len(session.turns) / 2


def test_names_that_are_long_runs_but_no_token_are_passed_over():
    """A run of 32 to 100 characters is a token only when it mixes lower case, upper case and
    digits: the names an agent's system reminders list (environment variables, functions) are
    not looked at again, nor is a run longer than any token."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import USER, Turn

    texts = (
        "FACTORY_DISABLE_SETTINGS_PERSISTENCE=1 and CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC",
        "see test_every_session_is_claimed_by_exactly_one_format_of_all",
        "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dA" * 4,  # 128 characters: longer than a token
        "x9ZqP2mL7vK4nR8sT1wY6bH3cF5gJ0dA",  # a token
    )
    turns = [Turn(position, USER, text) for position, text in enumerate(texts)]
    assert list(turns_to_search(turns)) == [3]


def test_prose_with_key_words_and_colons_is_passed_over_unless_a_key_ends_before_a_separator():
    """A text is searched for `KEY: value` only when a key named like a secret ends right before its
    `:` or `=`: an agent's system reminder that speaks of keywords and tokens, with colons
    elsewhere, is not looked at again."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import USER, Turn

    texts = (
        "Pass keywords to search tool names. Note: tokens are counted per request.",
        "Load it with ToolSearch: pass a keyword query, e.g. select:<name>",
        "export API_KEY=Zx9Yw8Vu7Ts6",
        'the "token" : value1234',
    )
    turns = [Turn(position, USER, text) for position, text in enumerate(texts)]
    assert list(turns_to_search(turns)) == [2, 3]


_SIZE = 1_000_000
_STARTS_PIECES = ("sk", "s", "k-", "gh", "p_", "github_pa", "t_", "xo", "x", "AKI", "AS", "IA", "AI", "za")
_OTHER_PIECES = ("a", "Z", "9", "_", "-", "+", "toke", "ke", "ey", "-----BEGI")


def _starts_pieces_in_short_runs(size: int) -> str:
    """Runs of up to 14 characters made of pieces of the named patterns' starts, keys and fixed
    strings: text that asks the look's automaton for the most states it can have."""
    rng = random.Random(5)
    pieces = _STARTS_PIECES + _OTHER_PIECES
    runs: list[str] = []
    while sum(map(len, runs)) + len(runs) < size:
        run = ""
        while len(run) + len(piece := rng.choice(pieces)) <= 14:
            run += piece
        runs.append(run)
    return " ".join(runs)


HOSTILE = {
    "fixed strings": "earer.eyJ-----BEGIN" * (_SIZE // 19),
    "short runs": ("sk-abcdefghijk " * (_SIZE // 15)),
    "runs under a token": ("Ab1" * 10 + " ") * (_SIZE // 31),
    "key words": "key:" * (_SIZE // 4),
    "key words before sparse separators": ("password :" + " " * 190) * (_SIZE // 200),
    "a key word before each of many separators": ('token="' + "x" * 40) * (_SIZE // 47),
    "starts in one run": "sk-ghp_xox" * (_SIZE // 10),
    "starts in short runs": "sk- xoxb-ab AKIA " * (_SIZE // 17),
    "starts' pieces in runs under 15": _starts_pieces_in_short_runs(_SIZE),
    "long runs, each new": " ".join(f"{number:033x}".replace("0", "q") for number in range(_SIZE // 34)),
}


def _scan_cost(tmp_path: Path, text: str, field: bool = False) -> float:
    """The CPU time of finding the secrets of a session of one message holding `text` (in a field
    of its record, looked at for named patterns only, when `field`)."""
    message = {"role": "user", "content": "hi", "note": text} if field else {"role": "user", "content": text}
    path = write_json(tmp_path / "session.json", {"messages": [message]})
    started = cpu_time()
    findings_of(path, KIND)
    return cpu_time() - started


@pytest.mark.parametrize("field", [False, True], ids=["in the text", "in a field"])
@pytest.mark.parametrize("hostile", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_text_costs_a_bounded_multiple_of_plain_text(tmp_path, hostile, field):
    plain = " ".join(random.Random(1).choice(WORDS[:6]) for _ in range(len(hostile) // 7))
    assert _scan_cost(tmp_path, hostile, field) < 50 * max(_scan_cost(tmp_path, plain, field), 0.02)


def test_text_asking_the_look_for_its_most_states_is_read_as_fast_as_prose_once_they_are_made():
    """The look's automaton makes its states as text needs them, once a process: text made to need
    the most (pieces of starts in runs just too short) is then read about as fast as prose, not
    the hundred times slower RE2 reads once it runs out of memory for them."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import USER, Turn

    def cost(text: str) -> float:
        turns = [Turn(0, USER, text)]
        list(turns_to_search(turns))  # (the states this text needs, made)
        costs = []
        for _ in range(3):
            started = cpu_time()
            list(turns_to_search(turns))
            costs.append(cpu_time() - started)
        return min(costs)

    hostile = _starts_pieces_in_short_runs(_SIZE)
    plain = " ".join(random.Random(1).choice(WORDS[:6]) for _ in range(len(hostile) // 7))
    assert cost(hostile) < 20 * max(cost(plain), 0.005)


def test_a_key_and_its_value_split_across_two_turns_are_not_one():
    """The texts are looked at joined, a line each: a key named like a secret at the end of one turn
    and a value at the start of the next are no `KEY: value`."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import USER, Turn

    texts = ("keep it under the api_key", "=Zx9Yw8Vu7Ts6 as before", "token", ": Zx9Yw8Vu7Ts6")
    turns = [Turn(position, USER, text) for position, text in enumerate(texts)]
    assert list(turns_to_search(turns)) == []


IN_LONG_RUNS = {
    "a key's last word ending it": "the_release_pipeline_service_access_token: Zx9Yw8Vu7Ts6",
    "a private key's start ending it": (
        "ssh_key_material_follows_here_and_now-----BEGIN RSA PRIVATE KEY-----\n"
        "MIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"
    ),
    "an AWS key id after its `_`, in a run longer than a token": (
        "aws_credentials_of_the_nightly_deploy_job_of_the_storefront_in_the_eu_west_region_AKIAIOSFODNN7EXAMPLE"
    ),
}


@pytest.mark.parametrize("text", IN_LONG_RUNS.values(), ids=IN_LONG_RUNS.keys())
def test_a_secret_at_the_end_or_inside_of_a_long_run_of_name_characters_is_pointed_at(text):
    """A run of 32 characters or more (letters, digits, `_`, `-`, `+`) is read whole by the look,
    not as the key, fixed string or start at its end or inside it: each is still seen."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.detect.secret_search import secrets_in_text
    from inspector.model import USER, Turn

    assert list(secrets_in_text(text))  # what the search finds, which the look must not miss
    turns = [Turn(0, USER, "hello there"), Turn(1, USER, text)]
    assert list(turns_to_search(turns)) == [1]


PIECES = (
    *(piece for secret in SECRETS for piece in (secret, secret[:9], secret[-12:])),
    *LOOK_ALIKES,
    *WORDS,
    *("api_key", "ACCESS_TOKEN", "client_secret", "Bearer ", '"', "'", " ", "\t", "\n", ":", "=", "_", "-", "+", "/"),
    *("x9ZqP2mL7vK4", "nR8sT1wY6bH3", "abcdefghijklmnop", "ABCDEFGHIJKLMNOP", "0123456789", "é", "中"),
    *("the_release_pipeline_service_access_", "ssh_key_material_follows_here_and_now"),  # long runs of a name
)


@replay
@examples("INSPECTOR_SECRET_LOOK_EXAMPLES", 300)
@given(lists(lists(sampled_from(PIECES), max_size=30).map("".join), min_size=1, max_size=6))
def test_every_text_the_search_finds_a_secret_in_is_pointed_at(texts):
    """Texts made of secrets, their pieces, look-alikes, key names, separators and long runs, as a
    turn's text and as a field of its record (looked at for named patterns and keys only): every
    one where the search finds a secret is pointed at by the look."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.detect.secret_search import secrets_in_text
    from inspector.model import USER, Turn

    as_texts = [Turn(position, USER, text) for position, text in enumerate(texts)]
    as_fields = [Turn(position, USER, "hi", raw={"note": text}) for position, text in enumerate(texts)]
    for turns, tokens_too in ((as_texts, True), (as_fields, False)):
        holding = {position for position, text in enumerate(texts) if any(secrets_in_text(text, tokens_too))}
        assert holding <= set(turns_to_search(turns))


def test_a_secret_met_again_as_an_id_is_pointed_at_in_every_turn_holding_it():
    """Ids and fields are looked at once each however often a batch holds them (a record's uuid is
    its turn's id and the next record's parent): one that may be a secret is pointed at wherever it stands."""
    from inspector.detect.secret_gate import turns_to_search
    from inspector.model import ASSISTANT, TOOL, USER, ToolCall, ToolResult, Turn

    token = SECRETS[2]
    turns = [Turn(0, USER, "hello there", "u-1")]
    turns += [Turn(1, ASSISTANT, "looking", "u-2", (ToolCall(token, "search", "{}", {}),))]
    turns += [Turn(2, USER, "and this", "u-3", raw={"uuid": "u-3", "parentUuid": "u-2"})]
    turns += [Turn(3, TOOL, "found", "u-4", (), (ToolResult(token, "search", "found"),))]
    turns += [Turn(4, USER, "thanks", "u-5", raw={"uuid": "u-5", "requestId": token})]
    assert list(turns_to_search(turns)) == [1, 3, 4]
