"""The exit statuses of ``harness`` (SPEC §10), the same for every command.

``harness test`` adds one of its own: 2 when a fixture file cannot be used.
"""

OK = 0
#: bad input (an unknown option or hook point, malformed JSON, a home that does not exist,
#: a malformed harness.toml), or the command itself failed (a tool call, a check)
FAILED = 1
#: ``harness fire``: the outcome blocks or denies (Claude Code's convention)
BLOCKED = 2
