"""Replay (SPEC §17): what a home would have done to the work of past sessions.

One module per transcript format (``claude_code``, ``codex``, and ``recording`` for
harness's own audit log), the rebuilt events (``events``), finding and telling formats
apart (``sources``), firing an event as the live hook would (``fire``), the decision
words (``decisions``), the report (``report``) and ``harness test`` fixtures
(``fixtures``). ``replay`` ties them together for the command line and for embedding:

```python
from harness.replay import replay
from harness.runtime import Runtime

with Runtime("~/.harness") as home:
    report = replay(["~/.claude/projects/app"], home)
report["summary"]["decisions"]          # {"allow": 40, "deny": 2}
```
"""

from __future__ import annotations

__all__ = ["replay"]


def replay(paths: list[str], runtime, *, host: str | None = None, against=None,
           handlers: bool = False, fixtures: str | None = None) -> dict:
    """Replay every event of the transcripts under ``paths`` through ``runtime`` (and the
    runtime ``against``, keeping only the events they decide differently); write
    ``fixtures`` when given. Returns the JSON report (harness.replay.report). Problems in
    the files are reported in it, never raised."""
    # imported here: a live hook that records imports harness.replay.decisions alone
    from harness.replay.events import Problem
    from harness.replay.fire import Replayed, Replayer
    from harness.replay.report import event_json, summary
    from harness.replay.sources import read_paths
    ours = Replayer(runtime, handlers=handlers)
    theirs = Replayer(against, handlers=handlers) if against is not None else None
    problems: list[Problem] = []
    entries: list[dict] = []
    kept: list[tuple[int, Replayed]] = []
    everything: list[Replayed] = []
    index = 0
    differences = 0
    for transcript in read_paths(paths, host):
        problems.extend(transcript.problems)
        for event in transcript.events:
            index += 1
            mine = ours.replay(event)
            everything.append(mine)
            other = theirs.replay(event) if theirs is not None else None
            if other is not None:
                if (mine.decision, mine.reason, mine.rewritten) == \
                        (other.decision, other.reason, other.rewritten):
                    continue
                differences += 1
            entries.append(event_json(index, mine, other))
            kept.append((index, mine))
    if fixtures is not None:
        from harness.replay.fixtures import write_fixtures
        write_fixtures(fixtures, kept)
    return {"events": entries,
            "summary": summary(everything, problems,
                               differences if theirs is not None else None),
            "problems": [str(p) for p in problems]}
