"""The ``,commands`` of the REPL. Each takes the session and the rest of the line and
returns the text to show; a ReplError's message is shown instead."""

from __future__ import annotations

import difflib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from harness.bridge import NO_ANSWER, BridgeError, scheme_to_json
from harness.config import TIERS
from harness.hooks.catalogue import HOOK_POINTS, UnknownHookError, hook_point
from harness.json_errors import json_error
from harness.repl import render
from harness.repl.repl_error import ReplError

if TYPE_CHECKING:  # the session runs the commands: it imports this module, not the reverse
    from harness.repl.session import ReplSession


@dataclass(frozen=True)
class Command:
    name: str
    usage: str
    summary: str
    run: Callable[[ReplSession, str], str]


COMMANDS: dict[str, Command] = {}


def command(usage: str, summary: str):
    """Register the decorated function as ``,NAME`` (NAME = the first word of ``usage``)."""
    def register(fn: Callable[[ReplSession, str], str]) -> Callable[[ReplSession, str], str]:
        name = usage.split()[0]
        COMMANDS[name] = Command(name, usage, summary, fn)
        return fn
    return register


def run_command(session: ReplSession, line: str) -> str:
    """Run ``,NAME REST``; a unique prefix of a name will do (``,q``)."""
    word, _, rest = line[1:].partition(" ")
    name = word.strip()
    return find_command(name).run(session, rest.strip())


def find_command(name: str) -> Command:
    if name in COMMANDS:
        return COMMANDS[name]
    matches = [c for c in COMMANDS if c.startswith(name)] if name else []
    if len(matches) == 1:
        return COMMANDS[matches[0]]
    if len(matches) > 1:
        raise ReplError(f",{name} is ambiguous: {', '.join(',' + m for m in matches)}")
    close = difflib.get_close_matches(name, COMMANDS, n=1)
    hint = f"; did you mean ,{close[0]}?" if close else ""
    raise ReplError(f"unknown command ,{name}{hint} (,help lists the commands)")


# -- arguments ---------------------------------------------------------------------------------
def json_or_alist(session: ReplSession, text: str, what: str) -> dict:
    """A JSON object (text starting with ``{``) or a Scheme expression whose value is an
    alist, converted as hook answers are (harness.bridge.scheme_to_json); in Hy mode a Hy
    expression whose value is a dict."""
    if session.language == "hy" and not _is_json_object(text):
        value = session.hy_json(text, what)  # a Hy dict {"k" v} is no JSON object
    elif text.startswith(("{", "[", '"')):  # JSON (a Scheme vector is #(...))
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            raise ReplError(json_error(what.removeprefix("the "), text, exc)) from None
    else:
        try:
            value = scheme_to_json(session.value_of(text), where=what)
        except BridgeError as exc:
            raise ReplError(str(exc)) from None
        if value is NO_ANSWER:
            value = {}
    if not isinstance(value, dict):
        raise ReplError(f"{what} must be a JSON object ({{...}}) or an alist, got "
                        f"{json.dumps(value)[:80]}")
    return value


def _is_json_object(text: str) -> bool:
    if not text.startswith("{"):
        return False
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError:
        return False
    return True


def hook_name(text: str) -> str:
    try:
        return hook_point(text).name
    except UnknownHookError as exc:
        raise ReplError(str(exc)) from None


def split_first(text: str) -> tuple[str, str]:
    first, _, rest = text.partition(" ")
    return first, rest.strip()


# -- commands ------------------------------------------------------------------------------------
@command("help [COMMAND]", "list the commands, or describe one")
def _help(session: ReplSession, arg: str) -> str:
    if arg:
        found = find_command(arg.lstrip(","))
        return f",{found.usage}\n  {found.summary}"
    width = max(len(c.usage) for c in COMMANDS.values()) + 1
    lines = [f",{c.usage:<{width}} {c.summary}" for c in COMMANDS.values()]
    lines.append("Anything else is Scheme, evaluated in the REPL environment "
                 f"({session.tier}). Ctrl-C cancels, Ctrl-D quits.")
    return "\n".join(lines)


@command("load FILE", "load a tool file into the runtime (its tier comes from harness.toml)")
def _load(session: ReplSession, arg: str) -> str:
    if not arg:
        raise ReplError("usage: ,load FILE")
    path = Path(arg.strip("'\"")).expanduser().resolve()
    error = session.load(path)
    reg = session.runtime.registry.get(str(path))
    if error is not None:
        return error + ("\n(the last good version stays live)" if reg is not None else "")
    return (f"loaded {render.short_path(path, session.home)} ({reg.tier}): "
            + render.registration([t.name for t in reg.tools], [h.point for h in reg.hooks]))


@command("tier [sandboxed|unsandboxed]", "show or set the tier of expressions typed here")
def _tier(session: ReplSession, arg: str) -> str:
    if not arg:
        return f"tier: {session.tier}"
    if arg not in TIERS:
        raise ReplError(f"unknown tier {arg!r}: use sandboxed or unsandboxed")
    session.set_tier(arg)
    return f"tier: {arg} (a fresh environment: earlier definitions are gone)"


@command("hy [on|off]", "type Hy instead of Scheme (on), or Scheme again (off)")
def _hy(session: ReplSession, arg: str) -> str:
    if arg not in ("", "on", "off"):
        raise ReplError("usage: ,hy [on|off]")
    if arg:
        session.set_language("hy" if arg == "on" else "scheme")
    if session.language == "hy":
        return ("hy: on (Hy runs as Python, unsandboxed; hook, tool, call_tool and home "
                "are at hand: (defn [(hook \"pre_tool\")] f [payload] ...) registers f)")
    return "hy: off (Scheme)"


@command("fire HOOK [PAYLOAD]",
         "fire a hook point; PAYLOAD is JSON, a Scheme alist or a Hy dict (default: the "
         "sample)")
def _fire(session: ReplSession, arg: str) -> str:
    name, rest = split_first(arg)
    if not name:
        raise ReplError("usage: ,fire HOOK [PAYLOAD]")
    hook = hook_name(name)
    payload = (json_or_alist(session, rest, "the payload") if rest
               else HOOK_POINTS[hook].sample_payload())
    start = time.perf_counter()
    result = session.runtime.fire(hook, payload)
    return render.dispatch_result(result, time.perf_counter() - start)


@command("sample HOOK", "show the hook point's sample payload (JSON, ready for ,fire)")
def _sample(session: ReplSession, arg: str) -> str:
    if not arg:
        raise ReplError("usage: ,sample HOOK")
    point = HOOK_POINTS[hook_name(arg)]
    answers = " ".join(point.answer_keys) or "none (observe only)"
    return (f"; {point.name}: {point.doc}\n; answer keys: {answers}\n"
            + json.dumps(point.sample, ensure_ascii=False))


@command("hooks [all]", "list the registered hooks in dispatch order (all: every hook point)")
def _hooks(session: ReplSession, arg: str) -> str:
    if arg == "all":
        return render.table([(p.name, p.doc) for p in HOOK_POINTS.values()],
                            ("HOOK", "WHEN"))
    hooks = session.runtime.hooks()
    if not hooks:
        return f"no hooks registered in {session.home} (,hooks all lists the hook points)"
    return render.table([(h["hook"], h["source"])
                         for h in hooks], ("HOOK", "SOURCE"))


@command("tools", "list the registered tools")
def _tools(session: ReplSession, arg: str) -> str:
    tools = session.runtime.tools()
    if not tools:
        return f"no tools registered in {session.home}"
    return render.table([(t["name"], t["source"],
                          t.get("description", "")) for t in tools],
                        ("NAME", "SOURCE", "DESCRIPTION"))


@command("call TOOL [ARGS]",
         "run a tool through the hook stack; ARGS is JSON, an alist or a Hy dict")
def _call(session: ReplSession, arg: str) -> str:
    name, rest = split_first(arg)
    if not name:
        raise ReplError("usage: ,call TOOL [ARGS]")
    args = json_or_alist(session, rest, "the arguments") if rest else {}
    return render.tool_result(session.runtime.call_tool(name, args, context=session.context))


@command("context [NAME]", "show or set the context ,call and typed code run as (%context-name%)")
def _context(session: ReplSession, arg: str) -> str:
    from harness.vfs.paths import context_name_problem
    if arg:
        problem = context_name_problem(arg)
        if problem is not None:
            raise ReplError(f",context: {problem}")
        session.context = arg
    return f"context: {session.context}"


@command("trace [on|off]", "show who ran, how long and what they printed in ,fire results")
def _trace(session: ReplSession, arg: str) -> str:
    dispatcher = session.runtime.dispatcher
    if arg in ("on", "off"):
        dispatcher.trace_enabled = arg == "on"
    elif arg:
        raise ReplError("usage: ,trace on|off")
    return f"trace: {'on' if dispatcher.trace_enabled else 'off'}"


@command("reload", "load every tool file and plugin again")
def _reload(session: ReplSession, arg: str) -> str:
    problems = session.reload()
    runtime = session.runtime
    files, plugins = len(runtime.registry.files), len(runtime.plugins.plugins)
    summary = (f"reloaded {files} tool file{'s' * (files != 1)}, "
               f"{plugins} plugin{'s' * (plugins != 1)}")
    return "\n".join([summary, *problems])


@command("quit", "leave the REPL (Ctrl-D does too)")
def _quit(session: ReplSession, arg: str) -> str:
    session.finished = True
    return ""
