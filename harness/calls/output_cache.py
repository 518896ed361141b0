"""Large tool outputs: stored in the VFS, replaced by a stub (reference §4).

An output (after ``pre_tool_output``) that does not start with ``Error:``, is not blank
and is more than ``threshold`` bytes (default 4,000) is written to
``vfs:///sys/tool_cache/<context>/<cache_id>`` as the System caller, and the model sees
chibi's stub instead: where it is, its size, how to read it, and a preview.
``pre_cache_output`` may skip caching (``block: true``) or give the preview text
(``summary``); ``post_cache_output`` observes the result.

What is stored is what the model can page through with ``file_head`` / ``file_tail`` /
``file_lines``: ``shell_exec``'s one-line JSON result is stored as its exit code, its
``[stdout]`` and its ``[stderr]`` with their lines intact (stored as JSON, a 29,000-character
line could never be read in parts), and the stub counts those lines. A tool call that reads
a cached file is never cached again into a new stub (``reads_cache``).
"""

from __future__ import annotations

import hashlib
import time

import orjson

from harness.vfs.paths import VfsError
from harness.vfs.zones import HOST

THRESHOLD = 4000
PREVIEW_CHARS = 500


def lines_of(text: str) -> list[str]:
    """Rust's str::lines: split at \\n, one \\r dropped per line, no line after a final
    newline (Python's splitlines splits at more characters)."""
    parts = text.split("\n")
    if parts and parts[-1] == "":
        parts.pop()
    return [p.removesuffix("\r") for p in parts]


def cache_id(tool: str, arguments: dict) -> str:
    """``<tool>_<unix seconds, hex>_<8 hex of the arguments' hash>``."""
    digest = hashlib.sha256(orjson.dumps(arguments, default=str)).hexdigest()[:8]
    return f"{tool}_{int(time.time()):x}_{digest}"


def pageable_text(output: str) -> str:
    """What is stored for ``output``: shell_exec's JSON line as ``exit_code: N`` and its
    [stdout] and [stderr] with their lines intact; anything else as it is."""
    if "\n" not in output.strip():
        try:
            data = orjson.loads(output)
        except orjson.JSONDecodeError:
            data = None
        if isinstance(data, dict) and (data.get("stdout") or data.get("stderr")):
            parts = [f"exit_code: {data['exit_code']}"] if "exit_code" in data else []
            parts += [f"[{key}]\n{data[key].rstrip(chr(10))}" for key in ("stdout", "stderr")
                      if isinstance(data.get(key), str) and data[key]]
            return "\n".join(parts) + "\n"
    return output


def reads_cache(arguments: dict) -> bool:
    """Whether a tool call names a file of the output cache (reading it is never cached
    again: the model would get a stub of its stub)."""
    return any(isinstance(value, str) and value.startswith("vfs:///sys/tool_cache/")
               for value in arguments.values())


def preview(text: str, chars: int = PREVIEW_CHARS) -> str:
    """The first ``chars`` characters of ``text``, cut back to a line end."""
    text = text[:chars]
    cut = text.rfind("\n")
    return text[:cut] if cut > 0 else text


def should_cache(output: str, threshold: float = THRESHOLD) -> bool:
    """True for an output of more than ``threshold`` UTF-8 bytes that is not an error."""
    if len(output) * 4 <= threshold:  # at most 4 bytes a character: short, no encoding
        return False
    return (not output.startswith("Error:") and bool(output.strip())
            and len(output.encode("utf-8", errors="surrogatepass")) > threshold)


def cache_output(call, arguments: dict, output: str) -> str | None:
    """Store ``output`` and return the stub the model sees, or None when it stays as it is
    (a hook said block, or the write failed: the full output then goes through)."""
    output = pageable_text(output)
    size = len(output.encode("utf-8", errors="surrogatepass"))
    lines = lines_of(output)
    decision = call.fire("pre_cache_output", {
        "tool_name": call.name, "arguments": arguments, "content": output,
        "char_count": len(output), "line_count": len(lines), "output_size": size})
    if decision["skip_cache"]:
        return None
    ident = cache_id(call.name, arguments)
    path = f"/sys/tool_cache/{call.context}/{ident}"
    try:
        call.runtime.vfs.write(HOST, path, output.encode("utf-8", errors="surrogatepass"))
    except (VfsError, OSError) as exc:
        call.errors.append({"source": "tool-cache", "message": f"not cached: {exc}"})
        return None
    uri = f"vfs://{path}"
    shown = decision["summary"] if decision["summary"] is not None else preview(output)
    stub = "\n".join([
        f"[Output cached: {uri}]",
        f"Tool: {call.name} | Size: {size} chars, ~{size // 4} tokens | Lines: {len(lines)}",
        "Output too large. Full output stored \u2014 do NOT re-run this tool.",
        f'Use file_head, file_tail, file_lines, or file_grep with path="{uri}" to examine.',
        f"Preview (first {len(lines_of(shown))} lines):",
        "---", shown, "---"])
    call.fire("post_cache_output", {"tool_name": call.name, "cache_id": ident,
                                    "output_size": size,
                                    "preview_size": len(stub.encode("utf-8", "replace"))})
    return stub
