"""Reading messages in the shapes several formats share (OpenAI calls, Responses items, LangChain
messages, OpenTelemetry GenAI attributes), and rebuilding a record list from repaired turns."""
