"""harness in front of Python agent frameworks (SPEC §15), one module per framework.

Each module imports its framework and needs that extra installed
(``pip install 'harness[pydantic-ai]'``, ``[langchain]``, ``[openai-agents]``,
``[claude-agent-sdk]``); importing this package imports none of them. What they share:
``tool_kinds`` (which permission point a tool call fires) and ``tool_guard`` (firing
``pre_tool``, that permission point and ``post_tool`` for one call).
"""
