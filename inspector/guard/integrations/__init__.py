"""`check_reply` inside the agent frameworks people write their loops with, one module each, each
needing its framework (an optional extra) and imported only by whoever uses it:

- `langchain_middleware`: a LangChain 1.x agent middleware (`pip install "inspector[langchain]"`);
- `openai_agents_guardrail`: an OpenAI Agents SDK output guardrail (`inspector[openai-agents]`);
- `pydantic_ai_validator`: a Pydantic AI output validator (`inspector[pydantic-ai]`).

Importing this package imports none of them.
"""
