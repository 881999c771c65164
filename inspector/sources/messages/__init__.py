"""Message shapes several storages share, read into turns and written back; a shape one format
alone uses stays beside that format, as a private module of `inspector.sources.formats`.

- `records`: what every reader and writer shares: rebuilding a record list from repaired turns,
  spreading a new text over text parts, call arguments as stored (every file format, the SQLite
  schemas, the OpenAI export).
- `openai_calls`: OpenAI `tool_calls` lists (`openai_messages`, `session-dump`, `smolagents`,
  `ag2`, `langchain_messages`).
- `openai_messages`: OpenAI Chat Completions messages as turns, and an edited one written back
  (`openai`, `ag2`, `litellm`, `langfuse`).
- `anthropic_messages`: Anthropic Messages content blocks (`anthropic`, `claude-code`).
- `responses_items`: OpenAI Responses items (`openai-responses`, `codex`, the Agents SDK's SQLite
  sessions).
- `langchain_messages`: LangChain messages by type (`langchain`, `langchain-dumpd`, `langsmith`,
  the LangGraph stores in SQLite and PostgreSQL); `langchain_dicts`: their `messages_to_dict`
  records (`langchain`, `langchain-sql`); `langchain_serialized`: their `dumpd` records
  (`langchain-dumpd`, `langsmith`).
- `repeated_history`: one conversation from a log of model calls that each repeat the history
  (`litellm`, `langfuse`, `langsmith`); `otel_conversation`: the same for a trace's model-call
  spans (`otel`, and `repeated_history` for calls no conversation is named for).
"""
