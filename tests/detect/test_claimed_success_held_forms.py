"""Detector `claimed-success`, more of the ways tools write a failure and replies claim success:
a system error's text at the end of a status line (`Directory not empty`, `File exists`,
`Read-only file system`), an error line after the program's name (`createdb: error:`), an error
line of a few words then a colon (`Error response from daemon:`), curl's `curl: (7)`, apt's `E:`,
yarn's `error Command failed`, a step that failed (`Deployment failed`), an HTTP status with its
reason phrase (`503 Service Unavailable`), a status object's HTTP status written as text, an
object of nothing but errors, MCP's `MCP error -32603:`; claims that a task started, switched or
went through. The look-alikes stay clean: "nothing was saved", a read page that opens with a
status phrase in a sentence, a count of zero failures."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.scanning import findings_of

KIND = "claimed-success"
Call = tuple[str, dict[str, Any], Any]


def _session(calls: list[Call], reply: str) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Please do it."}]
    for number, (tool, arguments, result) in enumerate(calls):
        function = {"name": tool, "arguments": json.dumps(arguments)}
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": f"c{number}", "type": "function", "function": function}],
            }
        )
        content = result if isinstance(result, str) else json.dumps(result)
        messages.append({"role": "tool", "tool_call_id": f"c{number}", "content": content})
    messages.append({"role": "assistant", "content": reply})
    return messages


FLAGGED: list[tuple[str, list[Call], str]] = [
    (
        "Directory not empty",
        [("bash", {"command": "rmdir build"}, "rmdir: failed to remove 'build': Directory not empty")],
        "Removed the build directory.",
    ),
    (
        "File exists",
        [("bash", {"command": "mkdir logs"}, "mkdir: cannot create directory 'logs': File exists")],
        "Created the logs directory.",
    ),
    (
        "Read-only file system",
        [
            (
                "bash",
                {"command": "cp a.txt /mnt/ro/"},
                "cp: cannot create regular file '/mnt/ro/a.txt': Read-only file system",
            )
        ],
        "Copied a.txt to /mnt/ro.",
    ),
    (
        "program: error:",
        [
            (
                "bash",
                {"command": "createdb app"},
                'createdb: error: database creation failed: ERROR:  database "app" already exists',
            )
        ],
        "Created the app database.",
    ),
    (
        "words then a colon",
        [("bash", {"command": "docker stop web"}, "Error response from daemon: No such container: web")],
        "Stopped the web container.",
    ),
    (
        "curl: (7)",
        [
            (
                "bash",
                {"command": "curl -X PUT localhost:9200/logs"},
                "curl: (7) Failed to connect to localhost port 9200 after 0 ms: Couldn't connect to server",
            )
        ],
        "Created the logs index.",
    ),
    (
        "apt E:",
        [
            (
                "bash",
                {"command": "apt-get install -y jq"},
                "E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 4121 (apt)",
            )
        ],
        "Installed jq.",
    ),
    (
        "yarn error",
        [
            (
                "bash",
                {"command": "yarn build"},
                "yarn run v1.22.19\n$ vite build\nerror Command failed with exit code 1.",
            )
        ],
        "Built the bundle.",
    ),
    (
        "a step failed",
        [("deploy_service", {"name": "api"}, "Deployment failed: 2 of 3 instances unhealthy")],
        "I've deployed the api service.",
    ),
    (
        "status and reason phrase",
        [("http_post", {"url": "https://api.acme.dev/v1/invoices"}, "503 Service Unavailable")],
        "Posted the invoice.",
    ),
    (
        "HTTP status as text",
        [("update_customer", {"id": 9}, {"status": "500", "message": "Internal error"})],
        "I've updated the customer.",
    ),
    (
        "nothing but errors",
        [("create_webhook", {"url": "https://x"}, {"errors": [{"code": "invalid_token", "message": "Token expired"}]})],
        "The webhook is created.",
    ),
    (
        "MCP error",
        [("write_note", {"title": "Plan"}, "MCP error -32603: Internal error: database is locked")],
        "I've written the note.",
    ),
    (
        "started",
        [("bash", {"command": "npm run dev"}, "Error: listen EADDRINUSE: address already in use :::3000")],
        "Started the dev server on port 3000.",
    ),
    (
        "went through",
        [("transfer_funds", {"amount": 50}, {"ok": False, "error": "insufficient_funds"})],
        "The transfer went through.",
    ),
]

CLEAN: list[tuple[str, list[Call], str]] = [
    (
        "nothing was saved",
        [("save_profile", {"id": 3}, {"status": "error", "message": "quota exceeded"})],
        "The server declined the request, so nothing was saved.",
    ),
    (
        "a read page opening with a status phrase",
        [("fetch_page", {"url": "https://acme.dev/help"}, "503 Service Unavailable is what you get during upgrades.")],
        "Done, I've read the help page.",
    ),
    (
        "no failure counted",
        [("bash", {"command": "make check"}, "checking...\n12 tests run\n0 tests failed")],
        "All checks passed.",
    ),
]


@pytest.mark.parametrize(("form", "calls", "reply"), FLAGGED, ids=[case[0] for case in FLAGGED])
def test_a_claim_after_the_failure_is_flagged(write_session, form, calls, reply):
    (finding,) = findings_of(write_session(_session(calls, reply)), KIND)
    assert finding.payload["claim"] in reply


@pytest.mark.parametrize(("case", "calls", "reply"), CLEAN, ids=[case[0] for case in CLEAN])
def test_the_look_alikes_stay_clean(write_session, case, calls, reply):
    assert findings_of(write_session(_session(calls, reply)), KIND) == []
