"""Observe-only plugins run at the same time; every other hook point calls its plugins one
after the other. Results come back in plugin-name order either way, one plugin's failure
touches no other, and nothing is left behind (processes, descriptors, threads).

Concurrency is proven without clocks: "barrier" plugins each wait until every plugin of the
dispatch has started (giving up after a few seconds), which can only happen when they run
at the same time."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest
from plugin_helpers import write_plugin

from harness.config import ConfigError, load_config
from harness.hooks.outcome import NO_ANSWER
from harness.plugins.invoke import call_hooks
from harness.plugins.plugin_set import CONCURRENT_OBSERVERS, PluginSet

OBSERVE_POINTS = ["post_tool", "on_start", "post_message"]
ADVISORY_POINT = "pre_vfs_write"
ORDERED_POINTS = ["pre_tool", "pre_message", "pre_shell_exec", "pre_api_request"]
ALL_POINTS = OBSERVE_POINTS + [ADVISORY_POINT] + ORDERED_POINTS

TIMEOUT = 0.5  # a hung plugin is killed after this


def plugin(plugins_dir: Path, name: str, body: str, hooks: list[str] = ALL_POINTS) -> Path:
    """A shell plugin that answers --schema for `hooks` and runs `body` for a hook call;
    $LOG is the shared log file, $NAME its name."""
    hook_list = ", ".join(f'"{h}"' for h in hooks)
    schema = f'{{"name": "{name}", "description": "d", "parameters": {{}}, "hooks": [{hook_list}]}}'
    return write_plugin(plugins_dir / name, f"#!/bin/sh\nNAME={name}\n"
                        f"if [ \"$1\" = --schema ]; then echo '{schema}'; exit 0; fi\n"
                        f"cat > /dev/null\n{body}\n")


def barrier(count: int) -> str:
    """Log `start`, wait until `count` plugins have started (or give up after 5 s), log
    `end`, answer with the name."""
    return (f'echo "start $NAME $$" >> "$LOG"\ni=0\n'
            f'while [ "$(grep -c "^start" "$LOG")" -lt {count} ]; do\n'
            f'  i=$((i + 1)); if [ $i -gt 500 ]; then echo "gave-up $NAME" >> "$LOG"; break; fi\n'
            f'  sleep 0.01\ndone\necho "end $NAME" >> "$LOG"\necho "{{\\"name\\": \\"$NAME\\"}}"')


RECORDER = ('echo "start $NAME" >> "$LOG"\nsleep 0.05\necho "end $NAME" >> "$LOG"\n'
            'echo "{\\"name\\": \\"$NAME\\"}"')


@pytest.fixture
def log(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "log"
    path.touch()
    monkeypatch.setenv("LOG", str(path))
    return path


def plugin_set(plugins_dir: Path, tmp_path: Path, **options) -> PluginSet:
    return PluginSet(plugins_dir, home=tmp_path / "home", hook_timeout=TIMEOUT, **options)


def events(log: Path) -> list[str]:
    return [" ".join(line.split()[:2]) for line in log.read_text().splitlines()]


def test_the_default_runs_observers_at_once_and_config_agrees():
    assert CONCURRENT_OBSERVERS > 1
    assert load_config(Path("/nonexistent/harness.toml")).concurrent_observers == \
        CONCURRENT_OBSERVERS


@pytest.mark.parametrize("point", OBSERVE_POINTS + [ADVISORY_POINT])
def test_observers_run_at_once_and_answer_in_name_order(plugins_dir, tmp_path, log, point):
    names = ["d", "c_2", "b", "a"]  # created in reverse: the set sorts them
    for name in names:
        plugin(plugins_dir, name, barrier(len(names)))
    results = plugin_set(plugins_dir, tmp_path).call_hooks(point, {"x": 1})
    assert [r.plugin for r in results] == ["a", "b", "c_2", "d"]
    assert [r.answer for r in results] == [{"name": n} for n in ("a", "b", "c_2", "d")]
    assert not any(line.startswith("gave-up") for line in events(log)), events(log)
    assert all(e.startswith("start") for e in events(log)[:4]), "all started before any ended"


@pytest.mark.parametrize("point", ORDERED_POINTS)
def test_other_points_call_their_plugins_one_after_the_other(plugins_dir, tmp_path, log,
                                                             point):
    for name in ("c", "a", "b"):
        plugin(plugins_dir, name, RECORDER)
    results = plugin_set(plugins_dir, tmp_path).call_hooks(point, {"x": 1})
    assert [r.answer for r in results] == [{"name": "a"}, {"name": "b"}, {"name": "c"}]
    assert events(log) == ["start a", "end a", "start b", "end b", "start c", "end c"]


def test_concurrent_observers_1_is_one_after_the_other(plugins_dir, tmp_path, log):
    for name in ("a", "b"):
        plugin(plugins_dir, name, RECORDER)
    results = plugin_set(plugins_dir, tmp_path, concurrent_observers=1).call_hooks(
        "post_tool", {})
    assert [r.plugin for r in results] == ["a", "b"]
    assert events(log) == ["start a", "end a", "start b", "end b"]


def test_at_most_the_bound_run_at_once(plugins_dir, tmp_path, log):
    names = [f"p{i}" for i in range(6)]
    for name in names:
        plugin(plugins_dir, name, barrier(2))  # the first two wait for each other
    results = plugin_set(plugins_dir, tmp_path, concurrent_observers=2).call_hooks(
        "post_tool", {})
    assert [r.answer for r in results] == [{"name": n} for n in names]
    running, most = 0, 0
    for event in events(log):
        running += 1 if event.startswith("start") else -1 if event.startswith("end") else 0
        most = max(most, running)
    assert most == 2
    assert not any(e.startswith("gave-up") for e in events(log))


def test_one_failing_or_hanging_observer_touches_no_other(plugins_dir, tmp_path, log):
    pids = tmp_path / "pids"
    plugin(plugins_dir, "a_crash", "exit 3")
    plugin(plugins_dir, "b_hang", f'sleep 30 &\necho "$$ $!" > {pids}\nsleep 30')
    plugin(plugins_dir, "c_flood", "head -c 20000000 /dev/zero")
    plugin(plugins_dir, "d_utf8", "printf '\"caf\\351\"'")
    plugin(plugins_dir, "e_ok", 'echo "{\\"ok\\": true}"')
    plugin(plugins_dir, "f_garbage", "echo 'not {json'")
    results = plugin_set(plugins_dir, tmp_path).call_hooks("post_tool", {})
    by_name = {r.plugin: r for r in results}
    assert [r.plugin for r in results] == ["a_crash", "b_hang", "c_flood", "d_utf8", "e_ok",
                                           "f_garbage"]
    assert by_name["a_crash"].error == "exited with code 3"
    assert by_name["b_hang"].error.startswith(f"timed out after {TIMEOUT:g} s")
    assert by_name["c_flood"].error.startswith("output exceeded 16777216 bytes")
    assert by_name["d_utf8"].answer == "caf\ufffd" and by_name["d_utf8"].warnings
    assert by_name["e_ok"].answer == {"ok": True} and not by_name["e_ok"].failed
    assert by_name["f_garbage"].answer == "not {json"
    assert all(r.answer is NO_ANSWER for r in results if r.failed)
    leader, child = map(int, pids.read_text().split())
    assert_gone(leader, child)


def test_a_missing_plugin_fails_alone(tmp_path):
    good = write_plugin(tmp_path / "good", "#!/bin/sh\ncat >/dev/null\necho 1\n")
    missing = tmp_path / "missing"
    results = call_hooks([_Runnable("a", missing), _Runnable("b", good),
                          _Runnable("c", missing)], "post_tool", {}, 5, at_once=3)
    assert [r.error is not None and r.error.startswith("cannot run") for r in results] == [
        True, False, True]
    assert results[1].answer == 1


class _Runnable:
    def __init__(self, name: str, path: Path) -> None:
        self.name, self.path = name, path


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def assert_gone(*pids: int) -> None:
    """Each pid is dead; a pid that was our child is reaped too (no zombie of ours)."""
    for pid in pids:
        for _ in range(100):
            if not _alive(pid):
                break
            threading.Event().wait(0.02)
        assert not _alive(pid), f"{pid} is still running"
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue  # reaped, or never ours
        pytest.fail(f"{pid} is a child of ours that was not reaped")


def _open_fds() -> set[int]:
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


def test_nothing_is_left_behind(plugins_dir, tmp_path, log):
    for name in ("a", "b", "c"):
        plugin(plugins_dir, name, barrier(3))
    plugin(plugins_dir, "d_hang", "sleep 30")
    plugins = plugin_set(plugins_dir, tmp_path)
    plugins.call_hooks("post_tool", {})  # warm-up: lazily opened files stay open
    log.write_text("")
    fds, threads = _open_fds(), threading.active_count()
    results = plugins.call_hooks("post_tool", {})
    assert [r.failed for r in results] == [False, False, False, True]
    assert _open_fds() == fds, "every pipe and pidfd is closed"
    assert threading.active_count() == threads, "no threads are used"
    assert_gone(*(int(line.split()[2]) for line in log.read_text().splitlines()
                  if line.startswith("start")))


class _Interrupt(Exception):
    pass


def test_an_interrupted_dispatch_kills_and_reaps_every_running_plugin(plugins_dir, tmp_path,
                                                                      log):
    for name in ("a", "b", "c"):
        plugin(plugins_dir, name, 'sleep 30 &\necho "start $NAME $$ $!" >> "$LOG"\nwait')
    plugins = PluginSet(plugins_dir, home=tmp_path / "home", hook_timeout=30)

    def interrupt_once_all_started(signum, frame):
        if log.read_text().count("start") < 3:
            signal.setitimer(signal.ITIMER_REAL, 0.05)
            return
        raise _Interrupt

    previous = signal.signal(signal.SIGALRM, interrupt_once_all_started)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with pytest.raises(_Interrupt):
            plugins.call_hooks("post_tool", {})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    pids = [int(p) for line in log.read_text().splitlines() for p in line.split()[2:]]
    assert len(pids) == 6
    assert_gone(*pids)


@pytest.mark.parametrize("value, expected", [
    ("true", CONCURRENT_OBSERVERS), ("false", 1), ("3", 3), ("1", 1)])
def test_config_concurrent_observers(tmp_path, value, expected):
    toml = tmp_path / "harness.toml"
    toml.write_text(f"[plugins]\nconcurrent_observers = {value}\n")
    assert load_config(toml).concurrent_observers == expected


@pytest.mark.parametrize("value", ["0", "-2", "1.5", '"yes"'])
def test_config_concurrent_observers_must_be_a_bool_or_a_positive_integer(tmp_path, value):
    toml = tmp_path / "harness.toml"
    toml.write_text(f"[plugins]\nconcurrent_observers = {value}\n")
    with pytest.raises(ConfigError, match="concurrent_observers must be true, false or a "
                                          "positive integer"):
        load_config(toml)


@pytest.mark.parametrize(("value", "expected"), [("false", 1), ("3", 3)])
def test_runtime_passes_concurrent_observers_from_harness_toml(tmp_path, value, expected):
    from harness.runtime import Runtime
    (tmp_path / "tools").mkdir()
    (tmp_path / "harness.toml").write_text(f"[plugins]\nconcurrent_observers = {value}\n")
    assert Runtime(tmp_path).plugins.concurrent_observers == expected
