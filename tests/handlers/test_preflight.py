"""``harness check --home`` finds the handlers that load but will never work: a mistyped
script path (Claude Code's silent fail-open), a URL off the allowlist, an unknown MCP
server, a prompt handler with no model, a handler that runs claude-hook itself."""

from pathlib import Path

from claude_helpers import command, group, make_home, script, settings_file

from harness.checks import check_home
from harness.handlers.preflight import preflight
from harness.runtime import Runtime


def test_handlers_that_will_never_work_are_named(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / ".claude" / "hooks").mkdir(parents=True)
    present = project / ".claude" / "hooks" / "present.sh"
    present.write_text("#!/bin/sh\nexit 0\n")
    present.chmod(0o755)
    (project / ".claude" / "hooks" / "plain.sh").write_text("exit 0\n")
    settings = settings_file(project / ".claude" / "settings.json", {"PreToolUse": [group(
        command("$CLAUDE_PROJECT_DIR/.claude/hooks/present.sh"),
        command("FOO=1 $CLAUDE_PROJECT_DIR/.claude/hooks/missing.sh --flag"),
        command("${CLAUDE_PROJECT_DIR}/.claude/hooks/plain.sh"),
        command("sh .claude/hooks/relative.sh"),
        command(f"python3 {project}/.claude/hooks/gone.py"),
        command("no-such-program-anywhere"),
        command("jq -r .tool_input.command | grep -q rm && exit 2"),
        command(script("no_rm_rf.sh")),
        command("harness claude-hook --socket /tmp/x.sock"),
        {"type": "http", "url": "http://127.0.0.1:9/hook"},
        {"type": "mcp_tool", "server": "memory", "tool": "check"},
        {"type": "prompt", "prompt": "ok?"})]})
    home = make_home(tmp_path, harness_toml=f'[hooks]\nclaude_settings = ["{settings}"]\n'
                                            f'project_dir = "{project}"\n')
    with Runtime(home) as rt:
        found = {p.key.rsplit("[", 1)[1].rstrip("]"): p.message
                 for p in preflight(rt.handlers, has_model=False)}
    hooks = project / ".claude" / "hooks"
    assert found == {
        "1": f"runs {hooks}/missing.sh, which does not exist: every run will fail",
        "2": f"runs {hooks}/plain.sh, which is not executable (chmod +x): every run will fail",
        "4": f"runs python3 {hooks}/gone.py, which does not exist: every run will fail",
        "5": "runs no-such-program-anywhere, which is not on PATH: every run will fail",
        "8": "runs harness claude-hook itself: called from harness, it will not answer (a "
             "settings file that runs harness should not also be one of its sources)",
        "9": "http://127.0.0.1:9/hook is not in allowedHttpHookUrls: this handler will never "
             "be called",
        "10": "MCP server 'memory' is not configured (mcp_servers / mcpServers)",
        "11": "no model is configured for this prompt handler ([model] in harness.toml, or "
              "Runtime(model=...))"}


def test_check_home_reports_them_as_warnings(tmp_path):
    home = make_home(tmp_path, '[[Stop]]\n[[Stop.hooks]]\ntype = "command"\n'
                               'command = "~/no/such/hook.sh"\n')
    findings = [(f.severity, f.where, f.message) for f in check_home(home)]
    assert ("warning", "hooks.toml", (f"Stop[0].hooks[0]: runs {Path.home()}/no/such/hook.sh, "
            "which does not exist: every run will fail")) in findings
