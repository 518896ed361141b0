"""``python -m harness.handlers.detached``: run the async handlers a one-shot process left.

`AsyncPool.detach` starts this in a session of its own and writes one JSON object on its
stdin: ``{"home", "jobs": [{"point", "source", "payload", "env", "cwd"}]}``. It loads the
home's declared handlers as any runtime would, runs each job's handler in the caller's
environment and directory, and writes what failed to stderr (the home's
``.cache/async-handlers.log``). Answers are ignored, as async handlers' always are.
"""

from __future__ import annotations

import sys
import time

import orjson


def main() -> int:
    request = orjson.loads(sys.stdin.buffer.read())
    from harness.config import ConfigError, load_config
    from harness.handlers.handler_set import HandlerSet
    from harness.handlers.invocation import Invocation
    from harness.model import ask
    home = request["home"]
    try:
        config = load_config(__import__("pathlib").Path(home) / "harness.toml")
    except ConfigError as exc:
        print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {exc}", file=sys.stderr)
        return 1
    handlers = HandlerSet(home, config.hooks,
                          (lambda r: ask(config.model, r)) if config.model else None)
    try:
        for job in request["jobs"]:
            results = handlers.run_detached(job["point"], job["payload"], [job["source"]],
                                            Invocation(job["env"], job["cwd"]))
            for result in results:
                for message in (*result.warnings, *((result.error,) if result.error else ())):
                    print(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {result.source}: {message}",
                          file=sys.stderr)
    finally:
        handlers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
