"""``harness demo``: the README's main job — show harness at work on the examples.

First the Scheme tour (examples/scheme/tour.scm). Then the hook examples: a temporary home
is built from examples/plugins (executables) and examples/scheme_hooks (``.scm`` twins), a
Runtime is created over it, and a short session of hook points is fired. For each one the
demo prints every hook's answer with its source, then the combined outcome.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from harness.shipped import shipped_dir

EXAMPLES = shipped_dir("examples")
PLUGIN_EXAMPLES = EXAMPLES / "plugins"
SCHEME_EXAMPLES = EXAMPLES / "scheme_hooks"

#: the Scheme examples that import (harness io), so they go in the unsandboxed tier
UNSANDBOXED_EXAMPLES = ("context_logger.scm", "logger.scm")
#: plugins whose Scheme twin defines the same tool: one home must not define a tool twice
#: (harness check warns), so they go in as NAME.disabled, there to look at but not loaded
TWIN_TOOL_PLUGINS = ("greet",)

_SHOWN = 72  # characters of a value shown on one line


def register(sub) -> None:
    demo = sub.add_parser("demo", help="run the examples and show what they do",
                          description="Run the Scheme tour, then fire a short session at a "
                                      "temporary home holding every example plugin and "
                                      "Scheme file, and show what each hook answered.")
    demo.add_argument("--keep", action="store_true",
                      help="keep the demo home afterwards (its path is printed)")
    demo.set_defaults(run=_demo)


# shutil and tempfile are imported by the demo itself: every harness command imports this
# module to build its parser.
def _demo(args) -> int:
    import shutil
    import tempfile

    from harness.cli.scheme_commands import run_program
    print("== Scheme tour (examples/scheme/tour.scm)")
    tour_status = run_program(EXAMPLES / "scheme" / "tour.scm")
    print()
    print("== Hook examples (examples/plugins + examples/scheme_hooks)")
    home = Path(tempfile.mkdtemp(prefix="harness-demo-"))
    try:
        hooks_status = run_hook_session(build_demo_home(home))
    finally:
        if args.keep:
            print(f"\ndemo home kept: {home}  (try: harness hooks --home {home})")
        else:
            shutil.rmtree(home, ignore_errors=True)
    return tour_status or hooks_status


def build_demo_home(home: Path) -> Path:
    """Fill ``home`` with copies of every example plugin and Scheme hook file, and a
    harness.toml that puts the files using (harness io) in the unsandboxed tier. A plugin
    whose Scheme twin defines the same tool is copied disabled."""
    import shutil
    (home / "plugins").mkdir(parents=True, exist_ok=True)
    (home / "tools").mkdir(exist_ok=True)
    for plugin in sorted(PLUGIN_EXAMPLES.iterdir()):
        name = plugin.name + (".disabled" if plugin.name in TWIN_TOOL_PLUGINS else "")
        shutil.copy2(plugin, home / "plugins" / name)  # copy2 keeps the exec bit
    for scm in sorted(SCHEME_EXAMPLES.glob("*.scm")):
        shutil.copy2(scm, home / "tools" / scm.name)
    tiers = "".join(f'"{name}" = "unsandboxed"\n' for name in UNSANDBOXED_EXAMPLES)
    (home / "harness.toml").write_text(f"[tools.tiers]\n{tiers}", encoding="utf-8")
    return home


def demo_session(home: Path) -> list[tuple[str, dict | None, str]]:
    """The hook points the demo fires, as (hook, payload, what it shows); hook "call"
    marks a tool call: payload None is the greet tool, else (tool, arguments)."""
    lifecycle = {"harness_home": str(home), "chibi_home": str(home),
                 "project_root": str(home), "tool_count": 0}
    tools = [{"name": n, "type": t} for n, t in (
        ("update_todos", "builtin"), ("update_goals", "builtin"), ("file_head", "file"),
        ("file_grep", "file"), ("shell_exec", "builtin"), ("greet", "plugin"))]
    body = {"model": "anthropic/claude-sonnet-4", "messages": [], "temperature": 0.7}
    return [
        ("on_start", lifecycle, "session starts (the loggers write their logs)"),
        ("on_context_switch", {"from_context": "default", "to_context": "coding",
                               "is_ephemeral": False}, "switch default -> coding"),
        ("pre_message", {"prompt": "Clean up the build directory", "context_name": "coding",
                         "summary": ""}, 'prompt "Clean up the build directory"'),
        ("pre_system_prompt", {"context_name": "coding", "summary": "", "flock_goals": []},
         "system prompt for coding"),
        ("pre_tool", {"tool_name": "shell_exec", "arguments": {"command": "ls build"}},
         "shell_exec ls build"),
        ("pre_tool", {"tool_name": "shell_exec", "arguments": {"command": "rm -rf build"}},
         "shell_exec rm -rf build"),
        ("pre_api_tools", {"context_name": "coding", "tools": tools, "fuel_remaining": 20,
                           "fuel_total": 20}, f"{len(tools)} tools offered"),
        ("pre_api_request", {"context_name": "coding", "request_body": body,
                             "fuel_remaining": 20, "fuel_total": 20},
         "request in coding, temperature 0.7"),
        ("pre_api_request", {"context_name": "creative", "request_body": body,
                             "fuel_remaining": 20, "fuel_total": 20},
         "request in creative, temperature 0.7"),
        ("post_tool_batch", {"context_name": "coding", "fuel_remaining": 20, "fuel_total": 20,
                             "current_fallback": "call_agent",
                             "tool_calls": [{"name": "shell_exec",
                                             "arguments": {"command": "ls build"}}]},
         "a batch that ran shell_exec, fuel 20"),
        ("call", None, 'greet {"name": "Ada"} through the hook stack'),
        ("call", ("shell_exec", {"command": "ls build"}),
         "builtin shell_exec: its permission gate (pre_shell_exec)"),
        ("call", ("file_head", {"path": "vfs:///shared/build.log", "lines": 400}),
         "builtin file_head on a 400-line log in the VFS"),
        ("on_end", lifecycle, "session ends"),
    ]


def run_hook_session(home: Path) -> int:
    """Fire the demo session over ``home`` and print what each hook changed; 0 when every
    file loaded and no hook failed, else 1."""
    from harness.runtime import Runtime
    rt = Runtime(home)
    # a build log for file_head to read: its output is over the cache threshold
    rt.vfs.write("system", "/shared/build.log", "".join(
        f"[{n:03}] compiled module_{n}.o\n" for n in range(400)).encode())
    # context_logger (the plugin) writes to $CONTEXT_LOG_FILE: keep it inside the home
    rt.plugins.env["CONTEXT_LOG_FILE"] = str(home / "context_log.txt")
    scm_files = [p.name for p in rt.tool_files()]
    print(f"home: {len(rt.plugins.plugins)} plugins, {len(scm_files)} Scheme files "
          f"({', '.join(UNSANDBOXED_EXAMPLES)} unsandboxed; the plugin twin of greet.scm is "
          "plugins/greet.disabled: one tool name, one definition)")
    problems = [f"{p['source']}: {p['message']}" for p in rt.plugins.problems]
    problems += rt.load_errors.values()
    for message in problems:
        print(f"  ! {message}")
    rt.dispatcher.trace_enabled = True
    failures = len(problems)
    for hook, payload, note in demo_session(home):
        print(f"\n{hook:<18} {note}")
        if hook == "call":
            if payload is None:
                _show_tool_call(rt)
            else:
                failures += _show_builtin_call(rt, *payload)
            continue
        result = rt.fire(hook, payload)
        _show_dispatch(result)
        failures += len(result["errors"])
        print(f"   => {describe_outcome(hook, payload, result['outcome'])}")
    rt.close()
    _show_logs(home)
    return 1 if failures else 0


def _show_dispatch(result: dict) -> None:
    """One line per hook that ran (from the trace), then any problem found in combining."""
    shown = set()
    for entry in result["trace"]:
        if "error" in entry:
            shown.add((entry["source"], entry["error"]))
            text = "! " + entry["error"].splitlines()[0]
        elif "skipped" in entry:
            text = f"skipped ({entry['skipped']})"
        else:
            text = _describe_answer(entry["answer"]) if "answer" in entry else "ran (no answer)"
        print(f"   {entry['source']:<36} {text}")
    for err in result["errors"]:  # e.g. a wrong-typed value in an answer
        if (err["source"], err["message"]) not in shown:
            print(f"   {err['source']:<36} ! {err['message'].splitlines()[0]}")


def _show_tool_call(rt) -> None:
    result = rt.call_tool("greet", {"name": "Ada"})
    tool = rt.registry.find_tool("greet")
    source = tool.source if tool is not None else "plugin:greet"
    print(f"   {source:<36} runs greet")
    shown = result.error or result.output.strip()
    print(f"   => {_short(shown)}  (pre_tool -> greet -> pre_tool_output -> post_tool_output "
          "-> post_tool)")


def _show_builtin_call(rt, tool: str, arguments: dict) -> int:
    """Call a builtin through the pipeline and show what the model would see; returns the
    number of hook failures."""
    result = rt.call_tool(tool, arguments)
    print(f"   {'call ' + tool:<36} {_short(arguments)}")
    if result.denied:
        print(f"   => DENIED: {result.output}")
        print("      (pre_shell_exec is deny-only: with no host permission handler the answer")
        print("       is a fail-safe deny; `harness call --allow` stands in for a handler)")
    elif result.cached:
        head, *rest = result.output.splitlines()
        print(f"   => {head}")
        for line in rest[:6]:
            print(f"      {line}")
        print(f"      ... ({len(rest) - 6} more lines of preview: the model sees this stub; "
              "the whole output stays in the VFS)")
    else:
        print(f"   => {_short(result.error or result.output)}")
    for entry in result.errors:
        print(f"   ! {entry['source']}: {entry['message'].splitlines()[0]}")
    return len(result.errors)


def describe_outcome(hook: str, payload: dict, outcome: dict) -> str:
    """One human line for the combined outcome of ``hook`` (SPEC §9 shapes)."""
    if hook == "pre_message":
        changed = outcome["prompt"] != payload["prompt"]
        return f"prompt sent: {_short(outcome['prompt'])}" + ("" if changed else " (unchanged)")
    if hook == "pre_system_prompt":
        inject = outcome.get("inject") or ""
        return f"put before the system prompt: {_short(inject)}" if inject else "nothing injected"
    if hook == "pre_tool":
        if outcome["blocked"]:
            return f"BLOCKED: {outcome['message']}"
        same = outcome["arguments"] == payload["arguments"]
        return "allowed" + ("" if same else f" with arguments {_short(outcome['arguments'])}")
    if hook == "pre_api_tools":
        kept = outcome["tools"]
        dropped = [t["name"] for t in payload["tools"] if t["name"] not in kept]
        return f"offered: {', '.join(kept) or 'none'}; dropped: {', '.join(dropped) or 'none'}"
    if hook == "pre_api_request":
        before, after = payload["request_body"], outcome["request_body"]
        changes = [f"{k} {_short(before.get(k))} -> {_short(v)}" for k, v in after.items()
                   if before.get(k, object()) != v]
        return "request_body: " + (", ".join(changes) or "unchanged")
    if hook in ("pre_agentic_loop", "post_tool_batch"):
        return (f"fallback {outcome['fallback']} (was {payload['current_fallback']}), "
                f"fuel {payload['fuel_remaining']} -> {outcome['fuel_remaining']}")
    if not outcome:
        return "observed only (nothing to change)"
    return _describe_answer(outcome)


def _describe_answer(answer: object) -> str:
    if answer == {}:
        return "no change"
    if isinstance(answer, dict):
        return ", ".join(f"{key}: {_short(value)}" for key, value in answer.items())
    return _short(answer)


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN else text[:_SHOWN - 3] + "..."


_LOG_ENTRY = re.compile(r"^\[[^\]]*\] (\w+)$")  # a logger's header line: "[time] hook"


def _show_logs(home: Path) -> None:
    print("\nlogs the observers wrote:")
    for name, writer in (("hook.log", "plugin:logger"), ("vfs/hook.log", "logger.scm"),
                         ("context_log.txt", "plugin:context_logger"),
                         ("vfs/context_log.txt", "context_logger.scm")):
        path = home / name
        if not path.exists():
            print(f"   {name:<20} (missing: {writer} wrote nothing)")
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        entries = [m.group(1) for m in map(_LOG_ENTRY.match, lines) if m] or lines
        print(f"   {name:<20} by {writer}: {'; '.join(entries)}")
