"""The tool calls Cline (and Roo Code and Kilo Code before native calls) write as XML in a reply's
text, and the results they answer with as user text; read by `cline-task`.

A call is `<tool_name><param>value</param>...</tool_name>`, the tool and parameter names from
Cline's own lists (its `shared/tools.ts` and `assistant-message/index.ts`, with Roo Code's
additions); a value is trimmed, as Cline trims it; `write_to_file`'s `content` runs to the last
`</content>` of the call, so a file holding that tag is read whole. A tag that is not a known
tool's, or a call never closed (a cut-off reply), stays text. A result is a user text block
starting `[read_file for 'notes.txt'] Result:` (the tool's description), the text after it the
result's content.

Linear time on any text: each search starts where the last one ended, and a closing tag searched
for in vain is not searched for again further on (it is not there).
"""

from __future__ import annotations

from inspector.model import ToolCall
from inspector.support.lazy_pattern import lazy_pattern

TOOL_NAMES = (
    "access_mcp_resource",
    "act_mode_respond",
    "apply_diff",
    "apply_patch",
    "ask_followup_question",
    "attempt_completion",
    "browser_action",
    "codebase_search",
    "condense",
    "execute_command",
    "fetch_instructions",
    "focus_chain",
    "generate_explanation",
    "generate_image",
    "insert_content",
    "list_code_definition_names",
    "list_files",
    "load_mcp_documentation",
    "new_rule",
    "new_task",
    "plan_mode_respond",
    "read_file",
    "replace_in_file",
    "report_bug",
    "run_slash_command",
    "search_and_replace",
    "search_files",
    "summarize_task",
    "switch_mode",
    "update_todo_list",
    "use_mcp_tool",
    "use_skill",
    "use_subagents",
    "web_fetch",
    "web_search",
    "write_to_file",
)
PARAMETER_NAMES = (
    "absolutePath",
    "action",
    "additional_context",
    "allowed_domains",
    "api_request_output",
    "args",
    "arguments",
    "blocked_domains",
    "command",
    "content",
    "context",
    "coordinate",
    "cwd",
    "diff",
    "end_line",
    "file_pattern",
    "follow_up",
    "from_ref",
    "input",
    "line",
    "message",
    "mode",
    "mode_slug",
    "needs_more_exploration",
    "operations",
    "options",
    "path",
    "prompt",
    "prompt_1",
    "prompt_2",
    "prompt_3",
    "prompt_4",
    "prompt_5",
    "query",
    "question",
    "reason",
    "recursive",
    "regex",
    "requires_approval",
    "response",
    "result",
    "search",
    "replace",
    "server_name",
    "size",
    "skill_name",
    "start_line",
    "steps_to_reproduce",
    "task",
    "task_progress",
    "text",
    "timeout",
    "title",
    "to_ref",
    "todos",
    "tool_name",
    "uri",
    "url",
    "what_happened",
)
WHOLE_CONTENT = frozenset({"write_to_file", "new_rule"})  # their content runs to its last closing tag

_TOOL_OPENING = lazy_pattern("<(" + "|".join(sorted(TOOL_NAMES, key=len, reverse=True)) + ")>")
_PARAMETER_OPENING = lazy_pattern("<(" + "|".join(sorted(PARAMETER_NAMES, key=len, reverse=True)) + ")>")
# `[read_file for 'notes.txt'] Result:` or `[attempt_completion] Result:`, on the block's first line
_RESULT_HEADER = lazy_pattern(r"\[([a-z_]+)(?: for '[^\n]*')?\] Result:")


def xml_calls(text: str) -> tuple[str, list[ToolCall]]:
    """The text without its XML tool calls, and the calls, in order (none: the text as it is)."""
    kept: list[str] = []
    calls: list[ToolCall] = []
    unclosed: set[str] = set()
    kept_from = searched_from = 0
    while (opening := _TOOL_OPENING.search(text, searched_from)) is not None:
        name = opening[1]
        closing = -1 if name in unclosed else text.find(f"</{name}>", opening.end())
        if closing == -1:
            unclosed.add(name)
            searched_from = opening.end()
            continue
        arguments = _parameters(text[opening.end() : closing], name)
        calls.append(ToolCall(None, name, arguments, arguments))
        kept.append(text[kept_from : opening.start()])
        kept_from = searched_from = closing + len(name) + 3
    if not calls:
        return text, []
    kept.append(text[kept_from:])
    return "".join(kept).strip(), calls


def result_header(text: str) -> tuple[str, str] | None:
    """The tool's name and the content of a result written as text, or None when it is not one."""
    header = _RESULT_HEADER.match(text)
    if header is None:
        return None
    return header[1], text[header.end() :].removeprefix("\n")


def _parameters(body: str, tool: str) -> dict[str, str]:
    values: dict[str, str] = {}
    unclosed: set[str] = set()
    searched_from = 0
    while (opening := _PARAMETER_OPENING.search(body, searched_from)) is not None:
        name = opening[1]
        tag = f"</{name}>"
        if name in unclosed:
            closing = -1
        elif name == "content" and tool in WHOLE_CONTENT:
            closing = body.rfind(tag, opening.end())
        else:
            closing = body.find(tag, opening.end())
        if closing == -1:
            unclosed.add(name)
            searched_from = opening.end()
            continue
        values[name] = body[opening.end() : closing].strip()
        searched_from = closing + len(tag)
    return values
