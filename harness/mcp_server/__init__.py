"""``harness mcp``: a home's tools served to any MCP client (SPEC §16), on the official
``mcp`` SDK (2.x, its low-level ``Server``).

- ``listing``: the tool list a client sees (each tool's parameters as its input schema; a
  tool whose file no longer loads says it runs an older version).
- ``calls``: a ``tools/call`` through ``Runtime.call_tool`` (the whole pipeline) and its
  result as an MCP result (a block, a denial, a failure: a tool error).
- ``asking``: a permission gate no hook answers, asked of the client by elicitation.
- ``changes``: the tool list watched live; clients told (``notifications/tools/list_changed``
  on the 2025 protocol, ``subscriptions/listen`` streams on 2026-07-28).
- ``guard``: the ``harness_hook`` tool, a host's hook event answered as that host expects.
- ``server``: the ``Server`` that ties them together; ``transports``: stdio and
  streamable HTTP (loopback, the bearer token of ``serve --http``); ``stdio_pipes``: stdio
  read and written by the event loop; ``bad_input``: unreadable lines answered as JSON-RPC
  says.

The SDK is imported only here, never by another command's start-up.
"""
