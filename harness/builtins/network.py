"""fetch_url: an http(s) GET (reference §5.5). A URL of a loopback, private, link-local
or cloud-metadata address passes the ``pre_fetch_url`` gate first; a redirect into such
an address is refused (it would slip past the gate). Up to 10 redirects are followed.
"""

from __future__ import annotations

from harness.builtins import lenient_count, python_tool
from harness.calls.permissions import url_sensitivity
from harness.calls.run_tool import ToolError

MAX_REDIRECTS = 10


def _opener():
    """A urllib opener whose redirects never lead into a sensitive address (urllib is
    imported here: most processes never fetch)."""
    import urllib.error
    import urllib.request

    class CheckedRedirects(urllib.request.HTTPRedirectHandler):
        max_redirections = MAX_REDIRECTS

        def redirect_request(self, req, fp, code, msg, headers, newurl):
            reason = url_sensitivity(newurl)
            if reason is not None and url_sensitivity(req.full_url) is None:
                raise urllib.error.URLError(f"redirect to a {reason} refused ({newurl})")
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    return urllib.request.build_opener(CheckedRedirects)


def fetch(url: str, max_bytes: int, timeout: float) -> str:
    """The body of ``url`` as text (bad UTF-8 replaced), cut at ``max_bytes``; ToolError
    with chibi's texts when it fails."""
    if not url.startswith(("http://", "https://")):
        raise ToolError(f"URL must start with http:// or https://, got: {url}")
    import urllib.error
    import urllib.request
    opener = _opener()
    request = urllib.request.Request(url, headers={"User-Agent": "harness"})
    try:
        response = opener.open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        raise ToolError(f"HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ToolError(f"Request failed: {reason}") from None
    with response:
        length = response.headers.get("Content-Length")
        if length and length.isdigit() and int(length) > max_bytes:
            raise ToolError(f"Response too large: Content-Length {length} exceeds limit of "
                            f"{max_bytes} bytes")
        try:
            body = response.read(max_bytes + 1)
        except OSError as exc:
            raise ToolError(f"Failed to read response: {exc}") from None
    text = body[:max_bytes].decode("utf-8", errors="replace")
    if len(body) > max_bytes:
        text += f"\n\n[Truncated: response exceeded limit of {max_bytes} bytes]"
    return text


@python_tool("fetch_url", "Fetch a URL (http or https) and return the body as text.", {
    "properties": {"url": {"type": "string", "description": "the URL"},
                   "max_bytes": {"type": "integer", "default": 1048576},
                   "timeout_secs": {"type": "integer", "default": 30}},
    "required": ["url"]}, "network")
def fetch_url(arguments: dict) -> str:
    url = arguments.get("url")
    if not isinstance(url, str):
        raise ToolError("Missing 'url' parameter")
    return fetch(url, lenient_count(arguments, "max_bytes", 1 << 20, minimum=1),
                 lenient_count(arguments, "timeout_secs", 30, minimum=1))


TOOLS = (fetch_url,)
