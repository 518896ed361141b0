"""flow and memory tools that need the host: send_message (fires pre_send_message /
post_send_message; undelivered messages go to the recipient's inbox in the VFS) and
read_context (a context's goals, inbox and task table, reference §5.1 and §10).

An inbox is ``vfs:///home/<ctx>/inbox.jsonl``: one JSON object per message
(``from``, ``to``, ``content``, ``timestamp``), written by the System caller.
"""

from __future__ import annotations

from datetime import UTC, datetime

import orjson

from harness.builtins import lenient_count, python_tool
from harness.calls.run_tool import ToolError
from harness.sandbox.thread_context import current_runtime, thread_context
from harness.vfs.paths import VfsError, context_name_problem
from harness.vfs.zones import HOST


def _inbox(context: str) -> str:
    return f"/home/{context}/inbox.jsonl"


@python_tool("send_message", "Send a message to another context (delivered by a hook, else "
             "to its inbox).", {
                 "properties": {"to": {"type": "string", "description": "the context"},
                                "content": {"type": "string", "description": "the message"},
                                "from": {"type": "string",
                                         "description": "sender (default: this context)"}},
                 "required": ["to", "content"]}, "flow")
def send_message(arguments: dict) -> str:
    from harness.calls.pipeline import fire_in_call
    to, content = arguments.get("to"), arguments.get("content")
    if not isinstance(to, str) or not to:
        return "Error: 'to' field is required"
    if not isinstance(content, str) or not content:
        return "Error: 'content' field is required"
    sender = arguments.get("from")
    context = thread_context().calling_context
    sender = sender if isinstance(sender, str) and sender else context
    runtime = current_runtime()
    payload = {"from": sender, "to": to, "content": content, "context_name": context}
    decision = fire_in_call(runtime, "pre_send_message", payload)
    if decision["delivered"]:
        result = f"Message delivered to '{to}' via {decision['via']}"
    else:
        problem = context_name_problem(to)
        if problem is not None:
            result = f"Error delivering message: {problem}"
        else:
            line = orjson.dumps({"from": sender, "to": to, "content": content,
                                 "timestamp": datetime.now(UTC).isoformat()}) + b"\n"
            try:
                runtime.vfs.append(HOST, _inbox(to), line, record=True)
            except (VfsError, OSError) as exc:
                result = f"Error delivering message: {exc}"
            else:
                result = f"Message delivered to '{to}' via local inbox"
    fire_in_call(runtime, "post_send_message", dict(payload, delivery_result=result))
    return result


def inbox_messages(vfs, context: str) -> list[dict]:
    """The messages in ``context``'s inbox, oldest first (unreadable lines skipped)."""
    try:
        raw = vfs.read(_inbox(context))
    except VfsError:
        return []
    out = []
    for line in raw.splitlines():
        try:
            entry = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if isinstance(entry, dict):
            out.append(entry)
    return out


# -- the task table -------------------------------------------------------------------------

def _task(text: str) -> dict | None:
    """The metadata and body of a .task file, or None when it has no id and status."""
    from harness.scheme.datatypes import NIL, String, Symbol
    from harness.scheme.reader import read_all
    try:
        data, _ = read_all(text, "task")
    except Exception:  # noqa: BLE001 - a task file that does not read is skipped
        return None
    if not data:
        return None

    def plain(x):
        if isinstance(x, String):
            return x.s
        if isinstance(x, Symbol):
            return x.name
        return x

    meta: dict = {}
    entry = data[0]
    while isinstance(entry, list):
        pair = entry[0]
        if isinstance(pair, list) and isinstance(pair[0], Symbol):
            value = pair[1]
            if isinstance(value, list) or value is NIL:  # (depends-on "a" "b")
                items = []
                while isinstance(value, list):
                    items.append(plain(value[0]))
                    value = value[1]
                meta[pair[0].name] = items
            else:
                meta[pair[0].name] = plain(value)
        entry = entry[1]
    if not isinstance(meta.get("id"), str) or not isinstance(meta.get("status"), str):
        return None
    body = data[1].s if len(data) > 1 and isinstance(data[1], String) else ""
    meta["summary"] = body.split("\n", 1)[0]
    return meta


def _task_files(vfs, directory: str) -> list[str]:
    out = []
    try:
        entries = vfs.list(directory)
    except VfsError:
        return out
    for entry in entries:
        path = f"{directory}/{entry.name}"
        if entry.is_dir:
            out += _task_files(vfs, path)
        elif entry.name.endswith(".task"):
            out.append(path)
    return out


def task_table(vfs, context: str) -> str:
    """chibi's task table for ``context`` (reference §10), or "" when it has no tasks."""
    roots = [(f"/home/{context}/tasks", "")]
    roots += [(f"/flocks/{f}/tasks", f" (flock:{f})") for f in vfs.flocks_of(context)]
    tasks = []
    for root, suffix in roots:
        for path in _task_files(vfs, root):
            try:
                task = _task(vfs.read_text(path))
            except VfsError:
                continue
            if task is not None:
                task["path"] = path[len(root) + 1:] + suffix
                tasks.append(task)
    if not tasks:
        return ""
    status = {t["id"]: t["status"] for t in tasks}
    rows = ["--- tasks ---", f"{'id':<8} {'status':<12} {'priority':<10} {'path':<20} summary"]
    active = blocked = done = 0
    for t in tasks:
        path = t["path"] if len(t["path"]) <= 20 else t["path"][:19] + "\u2026"
        summary = t["summary"]
        waiting = [d for d in t.get("depends-on", []) if status.get(d) != "done"]
        if t["status"] == "done":
            done += 1
        else:
            active += 1
            blocked += bool(waiting)
        if waiting:
            summary += f" (blocked by: {', '.join(waiting)})"
        rows.append(f"{t['id']:<8} {t['status']:<12} {t.get('priority', 'medium'):<10} "
                    f"{path:<20} {summary}")
    rows.append(f"--- {active} active ({blocked} blocked), {done} done ---" if blocked
                else f"--- {active} active, {done} done ---")
    return "\n".join(rows)


@python_tool("read_context", "Another context's state: goals of its flocks, recent inbox "
             "messages and tasks, as JSON.", {
                 "properties": {
                     "context_name": {"type": "string", "description": "the context"},
                     "include_messages": {"type": "string", "default": "true",
                                          "description": "\"true\" or \"false\""},
                     "num_messages": {"type": "integer", "default": 5}},
                 "required": ["context_name"]}, "memory")
def read_context(arguments: dict) -> str:
    name = arguments.get("context_name")
    if not isinstance(name, str):
        raise ToolError("Missing 'context_name' parameter")
    problem = context_name_problem(name)
    if problem is not None:
        raise ToolError(problem)
    runtime = current_runtime()
    if name not in runtime.contexts():
        raise ToolError(f"Context '{name}' does not exist")
    vfs = runtime.vfs
    goals = []
    for flock, path in [(vfs.site_flock, "/site/goals.md"),
                        *((f, f"/flocks/{f}/goals.md") for f in vfs.flocks_of(name))]:
        try:
            text = vfs.read_text(path)
        except VfsError:
            continue
        if text:
            goals.append({"flock": flock, "goals": text})
    messages = inbox_messages(vfs, name)
    count = lenient_count(arguments, "num_messages", 5)
    recent = []
    if arguments.get("include_messages", "true") == "true" and count:
        recent = [{"content": m.get("content"), "from": m.get("from"), "type": "message"}
                  for m in messages[-count:]]
    state = {"flock_goals": goals, "message_count": len(messages), "name": name,
             "recent_messages": recent, "summary": "", "tasks": task_table(vfs, name)}
    return orjson.dumps(state, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode()


TOOLS = (read_context, send_message)
