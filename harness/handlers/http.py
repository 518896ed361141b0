"""``http`` handlers: POST the event JSON to a URL; a JSON object in a 2xx answer decides.

Both allowlists fail closed. The URL must match an ``allowedHttpHookUrls`` entry, or the
handler is not called (an error says so). ``$VAR`` and ``${VAR}`` in ``headers`` (and in
the URL) take the caller's environment only for names listed in the handler's
``allowedEnvVars`` (and in ``httpHookAllowedEnvVars`` where a file sets that limit); any
other name becomes an empty string, with a warning. Redirects are refused: an allowed
URL cannot hand the request, headers and all, to one that is not.

Results as in Claude Code: a 2xx with an empty body is no answer; a 2xx with a JSON object
is read as a command's stdout would be; any other body or status, a refused connection or
a timeout is a non-blocking error. A status code alone never blocks.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import cache

from harness.handlers.spec import Handler

__all__ = ["HttpReply", "call_http", "expand_variables"]

#: bytes of a response body read at most; a bigger answer is an error
MAX_BODY = 4 * 1024 * 1024
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True)
class HttpReply:
    """A 2xx answer's body (text), or the error that stands for the call; warnings about
    environment variables that were left out."""

    body: str | None
    error: str | None
    warnings: tuple[str, ...] = ()


@cache
def _opener():
    """urllib's opener without redirects (urllib is imported on the first HTTP call)."""
    import urllib.error
    import urllib.request

    class NoRedirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):
            raise urllib.error.HTTPError(req.full_url, code, f"redirect to {newurl} refused "
                                                             "(http handlers do not follow "
                                                             "redirects)", headers, fp)
    return urllib.request.build_opener(NoRedirects)


def expand_variables(text: str, env: Mapping[str, str], allowed: Collection[str],
                     warnings: list[str], where: str) -> str:
    """`text` with ``$VAR`` / ``${VAR}`` replaced: allowed names by their value, others by
    "" (with a warning naming `where`)."""
    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2)
        if name in allowed:
            return env.get(name, "")
        warnings.append(f"{where}: ${name} is not an allowed environment variable "
                        "(allowedEnvVars); replaced by an empty string")
        return ""
    return _VARIABLE.sub(value, text)


def call_http(handler: Handler, body: bytes, timeout: float, env: Mapping[str, str],
              allowed_vars: Collection[str], url_allowed) -> HttpReply:
    """POST `body` for `handler`; `url_allowed(url)` is the URL allowlist."""
    import urllib.error
    import urllib.request
    warnings: list[str] = []
    options = handler.options
    url = expand_variables(options["url"], env, allowed_vars, warnings, "url")
    if not url_allowed(url):
        return HttpReply(None, f"URL {url} is not in allowedHttpHookUrls; the handler was "
                               "not called (list it in hooks.toml or a settings file)",
                         tuple(warnings))
    headers = {"Content-Type": "application/json"}
    for name, text in (options.get("headers") or {}).items():
        headers[name] = expand_variables(text, env, allowed_vars, warnings, f"header {name}")
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with _opener().open(request, timeout=timeout) as response:
            raw = response.read(MAX_BODY + 1)
            status = response.status
    except urllib.error.HTTPError as exc:
        detail = exc.read(300).decode("utf-8", "replace").strip() if exc.fp else ""
        return HttpReply(None, f"{url}: HTTP {exc.code}" + (f": {detail}" if detail else
                                                            f" {exc.reason}"), tuple(warnings))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        if isinstance(reason, TimeoutError) or isinstance(exc, TimeoutError):
            reason = f"timed out after {timeout:g} s"
        return HttpReply(None, f"{url}: {reason}", tuple(warnings))
    if len(raw) > MAX_BODY:
        return HttpReply(None, f"{url}: the answer is over {MAX_BODY} bytes", tuple(warnings))
    if not 200 <= status < 300:
        return HttpReply(None, f"{url}: HTTP {status}", tuple(warnings))
    text = raw.decode("utf-8", "replace")
    if text.strip() and not text.lstrip().startswith("{"):
        return HttpReply(None, f"{url}: the answer is not a JSON object: "
                               f"{text.strip()[:200]}", tuple(warnings))
    return HttpReply(text, None, tuple(warnings))
