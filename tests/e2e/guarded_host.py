"""The guard scenario the npm-host tests share (test_codex_hooks.py, test_gemini_hooks.py,
test_copilot_hooks.py): a host scripted to ``rm -rf victim`` then ``ls``, guarded by the
Scheme guard home of tests/fixtures/hosts through ``harness hook HOST`` in its own process
or through the HTTP daemon. A `GuardedHost` holds only what differs from host to host."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from daemon import HttpDaemon, client_command, harness_command
from guard_home import assert_rm_stopped_and_ls_ran, make_guard_home, make_victim_project
from host_driver import HostRun

__all__ = ["GuardedHost", "assert_guarded"]


@dataclass(frozen=True)
class GuardedHost:
    """How to drive one host through the scenario."""

    name: str  # as in ``harness hook NAME``
    #: run_codex and the like: (binary, root, project, turns, hooks) -> HostRun
    run: Callable[..., HostRun]
    hooks: Callable[[str], dict]  # the host's hook settings that run a command line
    turns: list[list[dict]]  # rm -rf victim, ls > listing.txt, done (the server's items)
    hook_args: tuple[str, ...] = ()  # more arguments of ``harness hook NAME``

    def through_command(self, binary: Path, root: Path) -> tuple[HostRun, Path]:
        """The scenario with ``harness hook NAME --home HOME`` as the hook command: the run
        and the project folder."""
        home, folder = make_guard_home(root), make_victim_project(root)
        command = harness_command("hook", self.name, *self.hook_args, "--home", str(home))
        return self.run(binary, root, folder, self.turns, self.hooks(command)), folder

    def through_daemon(self, binary: Path, root: Path, client: str) -> tuple[HostRun, Path]:
        """The scenario with `client` (daemon.CLIENTS) asking a ``harness serve --http``."""
        home, folder = make_guard_home(root), make_victim_project(root)
        with HttpDaemon(home) as daemon:
            command = client_command(client, self.name, daemon.url, home, *self.hook_args)
            return self.run(binary, root, folder, self.turns, self.hooks(command)), folder


def assert_guarded(run: HostRun, folder: Path) -> None:
    """The host ran to its end, the guard stopped ``rm -rf`` and let ``ls`` run, and the
    model was told why."""
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert_rm_stopped_and_ls_ran(folder)
    assert "rm -rf is not allowed" in run.tool_outputs()[0]
