"""A real Claude Code session with a live harness guard, for replay's test data.

``record_session(claude, harness, home)`` copies ``home`` (a harness home) into
``claude.root``, installs ``harness claude-hook --home COPY`` as the project's PreToolUse
hook for Bash and runs one scripted session offline: the model asks for ``ls`` (the guard
rewrites it to ``ls -la``), ``rm -rf build`` (the guard denies it) and ``echo hello >
out.txt`` (allowed), then says it is done. It returns the session's transcript and the
home's audit log (``[record]``).

Run as a script, it regenerates the committed fixtures in tests/fixtures/transcripts/
(synthetic data: a scratch HOME, a scripted model)::

    python -m tests.e2e.record_session
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

from tests.e2e.anthropic_server import ScriptedAnthropicServer, bash, say
from tests.e2e.claude_code import ClaudeCode, command_hook, install_claude_code

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "transcripts"
GUARD_HOME = FIXTURES / "home"
PROMPT = "tidy the project"
COMMANDS = ("ls", "rm -rf build", "echo hello > out.txt")


def record_session(claude: ClaudeCode, harness: str, home: Path = GUARD_HOME
                   ) -> tuple[Path, Path]:
    """Run the scripted session (see the module doc); return (transcript, audit log)."""
    live_home = claude.root / "harness-home"
    shutil.copytree(home, live_home, ignore=shutil.ignore_patterns(".cache", "audit.jsonl*"))
    hook = command_hook(f"{harness} claude-hook --home {live_home}")
    turns = [bash(command) for command in COMMANDS] + [say("done")]
    with ScriptedAnthropicServer(turns) as server:
        run = claude.run(PROMPT, server, settings={"hooks": hook})
    if run.returncode != 0 or len(run.transcripts) != 1:
        raise RuntimeError(f"claude -p failed ({run.returncode}): {run.stderr[-2000:]}")
    return run.transcripts[0], live_home / "audit.jsonl"


def main() -> int:
    harness = str(Path(sys.executable).parent / "harness")
    with tempfile.TemporaryDirectory() as scratch:
        claude = ClaudeCode(install_claude_code(), Path(scratch))
        transcript, audit = record_session(claude, harness)
        out = FIXTURES / "claude-code"
        out.mkdir(parents=True, exist_ok=True)
        shutil.copy(transcript, out / "session.jsonl")
        shutil.copy(audit, FIXTURES / "recording" / "audit.jsonl")
    print(f"wrote {out / 'session.jsonl'} and {FIXTURES / 'recording' / 'audit.jsonl'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
