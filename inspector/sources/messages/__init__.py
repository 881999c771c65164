"""Message shapes several storages share, read into turns and written back; a shape one format
alone uses stays beside that format, as a private module of `inspector.sources.formats`.

What every reader and writer shares (every file format, the SQL schemas, the OpenAI export):
- `record_lists`: a record list rebuilt from repaired turns, untouched records kept as they were;
- `text_parts`: a message's text kept in parts, and a new text spread over them;
- `arguments`: a call's arguments as stored, parsed and written back;
- `message_list`: the message list of a session file (the file formats only: it reads a
  `Document`, which no module the SQL schemas import may reach, the backends being independent).

Message shapes:
- `openai_calls`: OpenAI `tool_calls` lists (`openai_messages`, `session-dump`, `smolagents`,
  `ag2`, `langchain_messages`).
- `openai_messages`: OpenAI Chat Completions messages as turns, and an edited one written back
  (`openai`, `ag2`, `litellm`, `langfuse`).
- `anthropic_messages`: Anthropic Messages content blocks (`anthropic`, `claude-code`).
- `gemini_contents`: Gemini `Content` records, `role` and `parts` (`gemini`, `qwen-code`).
- `responses_items`: OpenAI Responses items (`openai-responses`, `codex`, the Agents SDK's SQLite
  sessions).
- `langchain_messages`: LangChain messages by type (`langchain`, `langchain-dumpd`, `langsmith`,
  the LangGraph stores in SQLite and PostgreSQL); `langchain_calls`: an AI message's calls, in
  its two lists and `additional_kwargs`; `langchain_lists`: a file holding one list of them
  (`langchain`, `langchain-dumpd`); `langchain_dicts`: their `messages_to_dict` records
  (`langchain`, `langchain-sql`); `langchain_serialized`: their `dumpd` records
  (`langchain-dumpd`, `langsmith`).
- `repeated_history`: one conversation from a log of model calls that each repeat the history
  (`litellm`, `langfuse`, `langsmith`); `otel_conversation`: the same for a trace's model-call
  spans (`otel`, and `repeated_history` for calls no conversation is named for).
- `opencode_parts`: OpenCode's messages and parts (the `opencode` schema of its SQLite history,
  and `opencode-storage`, its older JSON files); `opencode_part_repairs`: a repaired session's
  parts as OpenCode writes them (both writers).
"""
