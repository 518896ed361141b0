"""SPEC §14 "Never open": a guard that does not load never lets through what it would have
stopped. Its last good version is kept in the home, so a fresh runtime runs it and says so;
a closed file with no good version blocks and denies; a broken file that names a permission
point denies it, whatever its policy; a deleted file is gone for real."""

from __future__ import annotations

import json

import pytest

from harness.runtime import Runtime

GUARD = """\
(register-hook 'pre_tool
  (lambda (payload)
    (let ((command (assoc "command" (cdr (assoc "arguments" payload)))))
      (if (and command (string-contains (cdr command) "rm -rf"))
          (list (cons "block" #t) (cons "message" "rm -rf is not allowed here"))
          '()))))
"""
BROKEN_GUARD = GUARD[:-2] + "\n"  # a `)` short
SHELL_GUARD = """\
(register-hook 'pre_shell_exec
  (lambda (payload) (list (cons "denied" #t) (cons "reason" "no shell today"))))
"""
PY_GUARD = """\
from harness.api import hook

@hook("pre_tool")
def no_rm(payload):
    if "rm -rf" in payload["arguments"].get("command", ""):
        return {"block": True, "message": "python says no"}
"""
RM = {"tool_name": "shell_exec", "arguments": {"command": "rm -rf /"}}
LS = {"tool_name": "shell_exec", "arguments": {"command": "ls"}}


def make_home(tmp_path, files: dict[str, str], toml: str = ""):
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    for name, text in files.items():
        (home / "tools" / name).parent.mkdir(parents=True, exist_ok=True)
        (home / "tools" / name).write_text(text)
    (home / "harness.toml").write_text(toml)
    return home


def allow(hook, payload):
    return True


# -- the last good version survives the process -------------------------------------------

def test_a_fresh_runtime_runs_the_last_good_version_and_says_so(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    guard = home / "tools" / "guard.scm"
    assert Runtime(home).fire("pre_tool", RM)["outcome"]["blocked"] is True
    guard.write_text(BROKEN_GUARD)
    rt = Runtime(home)  # a new process: nothing of the guard in memory
    result = rt.fire("pre_tool", RM)
    assert result["outcome"] == {"blocked": True, "message": "rm -rf is not allowed here",
                                 "arguments": RM["arguments"]}
    for outcome in (result, rt.fire("pre_tool", LS), rt.fire("on_start", {})):
        [error] = outcome["errors"]
        assert error["source"] == f"scm:{guard.relative_to(home)}"
        assert error["message"].startswith(f"running last good version of {guard} (saved 20")
        assert f"); {guard}:1:1: unexpected end of input" in error["message"]
    [failure] = rt.load_failures()
    assert failure["last_good_runs"] is True
    assert failure["message"].startswith(f"{guard}:1:1: unexpected end of input")


def test_the_last_good_version_is_content_addressed_in_the_home(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    Runtime(home)
    folder = home / ".harness-state" / "last-good"
    index = json.loads((folder / "index.json").read_text())
    entry = index["tools/guard.scm"]
    assert entry["points"] == ["pre_tool"]
    assert (folder / f"{entry['digest']}.src").read_text() == GUARD
    assert (home / ".harness-state" / ".gitignore").read_text().endswith("\n*\n")
    (home / "tools" / "guard.scm").write_text(GUARD.replace("here", "at all"))
    Runtime(home)
    new = json.loads((folder / "index.json").read_text())["tools/guard.scm"]
    assert new["digest"] != entry["digest"]
    assert [p.name for p in folder.glob("*.src")] == [f"{new['digest']}.src"]


def test_a_fixed_file_runs_its_new_version_and_the_note_goes(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    Runtime(home)
    (home / "tools" / "guard.scm").write_text(BROKEN_GUARD)
    rt = Runtime(home)
    (home / "tools" / "guard.scm").write_text(GUARD.replace("here", "at all"))
    assert rt.load_file(home / "tools" / "guard.scm") is None
    result = rt.fire("pre_tool", RM)
    assert result["outcome"]["message"] == "rm -rf is not allowed at all"
    assert result["errors"] == []


def test_a_deleted_guard_is_gone_a_broken_one_is_not(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    guard = home / "tools" / "guard.scm"
    Runtime(home)
    guard.unlink()
    rt = Runtime(home)
    assert rt.fire("pre_tool", RM)["outcome"]["blocked"] is False
    index = json.loads((home / ".harness-state" / "last-good" / "index.json").read_text())
    assert index == {}
    guard.write_text(BROKEN_GUARD)  # a new file of the same name has no good version
    result = Runtime(home).fire("pre_tool", RM)
    assert result["outcome"]["blocked"] is False
    assert result["errors"][0]["message"].startswith("failed to load, so none of its hooks")


def test_unloading_a_file_forgets_its_good_version(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    guard = home / "tools" / "guard.scm"
    rt = Runtime(home)
    guard.unlink()
    rt.unload_file(guard)  # what hot reload does when the file is deleted
    guard.write_text(BROKEN_GUARD)
    assert Runtime(home).fire("pre_tool", RM)["outcome"]["blocked"] is False


HY_GUARD = """\
(import harness.api [hook])

(defn [(hook "pre_tool")] no-rm [payload]
  (when (in "rm -rf" (.get (get payload "arguments") "command" ""))
    {"block" True "message" "python says no"}))
"""


@pytest.mark.parametrize(("name", "text"), [("guard.py", PY_GUARD), ("guard.hy", HY_GUARD)])
def test_python_and_hy_files_keep_their_last_good_version_too(tmp_path, name, text):
    toml = '[tools.tiers]\n"admin/" = "unsandboxed"\n'
    home = make_home(tmp_path, {f"admin/{name}": text}, toml)
    Runtime(home)
    guard = home / "tools" / "admin" / name
    guard.write_text(text.replace('"block"', '("block"'))
    result = Runtime(home).fire("pre_tool", RM)
    assert result["outcome"]["message"] == "python says no"
    assert result["errors"][0]["message"].startswith(f"running last good version of {guard}")
    assert f"{guard}:" in result["errors"][0]["message"]


def test_a_kept_version_that_does_not_match_its_digest_is_not_run(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    Runtime(home)
    [kept] = (home / ".harness-state" / "last-good").glob("*.src")
    kept.write_text("(register-hook 'pre_tool (lambda (p) '()))")
    (home / "tools" / "guard.scm").write_text(BROKEN_GUARD)
    result = Runtime(home).fire("pre_tool", RM)
    assert result["outcome"]["blocked"] is False
    assert result["errors"][0]["message"].startswith("failed to load")


def test_a_home_where_nothing_can_be_kept_still_works(tmp_path):
    home = make_home(tmp_path, {"guard.scm": GUARD})
    (home / ".harness-state").write_text("not a folder")  # every write there fails
    rt = Runtime(home)
    assert rt.fire("pre_tool", RM)["outcome"]["blocked"] is True
    assert any("cannot keep the last good version" in p for p in rt.last_good.problems)
    (home / "tools" / "guard.scm").write_text(BROKEN_GUARD)
    assert Runtime(home).fire("pre_tool", RM)["errors"][0]["message"].startswith(
        "failed to load")


# -- [failure] covers load failures ----------------------------------------------------------

CLOSED = '[failure]\n"scm:guards/" = "closed"\n'


@pytest.mark.parametrize("toml", [CLOSED, '[failure]\ndefault = "closed"\n'])
def test_a_closed_file_with_no_good_version_blocks_and_denies(tmp_path, toml):
    home = make_home(tmp_path, {"guards/guard.scm": BROKEN_GUARD}, toml)
    guard = home / "tools" / "guards" / "guard.scm"
    rt = Runtime(home, permission_handler=allow)
    result = rt.fire("pre_tool", LS)
    assert result["outcome"]["blocked"] is True
    message = result["outcome"]["message"]
    assert message.startswith(f"{guard} does not load and no good version of it runs, so "
                              "pre_tool blocks until it loads (its failure policy is closed)")
    assert f": {guard}:1:1: unexpected end of input" in message
    assert result["answers"][-1]["source"] == f"scm:{guard.relative_to(home)}"
    assert rt.fire("pre_tool_output", {"tool_name": "x", "output": "o"})["outcome"]["blocked"]
    assert rt.fire("pre_spawn_agent", {"prompt": "p"})["outcome"]["blocked"] is True
    denied = rt.fire("pre_file_read", {"tool_name": "fs_read", "path": "/etc/passwd"})
    assert denied["outcome"]["denied"] is True and str(guard) in denied["outcome"]["reason"]
    assert rt.fire("post_tool", {"tool_name": "x"})["outcome"] == {}
    guard.write_text(GUARD)
    rt.load_file(guard)
    assert rt.fire("pre_tool", LS)["outcome"]["blocked"] is False


def test_an_open_file_with_no_good_version_is_reported_not_obeyed(tmp_path):
    home = make_home(tmp_path, {"guards/guard.scm": BROKEN_GUARD},
                     '[failure]\ndefault = "closed"\n"scm:guards/" = "open"\n')
    rt = Runtime(home, permission_handler=allow)
    result = rt.fire("pre_tool", RM)
    assert result["outcome"]["blocked"] is False
    assert result["errors"][0]["message"].startswith("failed to load")
    assert rt.fire("pre_file_read", {"path": "a"})["outcome"]["denied"] is False


def test_a_closed_file_running_its_last_good_version_obeys_that_version(tmp_path):
    home = make_home(tmp_path, {"guards/guard.scm": GUARD}, CLOSED)
    Runtime(home)
    (home / "tools" / "guards" / "guard.scm").write_text(BROKEN_GUARD)
    rt = Runtime(home)
    assert rt.fire("pre_tool", LS)["outcome"]["blocked"] is False
    assert rt.fire("pre_tool", RM)["outcome"]["blocked"] is True


# -- permission points never open on a broken guard -------------------------------------------

def test_a_broken_file_that_names_a_permission_point_denies_it(tmp_path):
    home = make_home(tmp_path, {"shell.scm": SHELL_GUARD[:-2]})
    shell = home / "tools" / "shell.scm"
    rt = Runtime(home, permission_handler=allow)
    outcome = rt.fire("pre_shell_exec", {"tool_name": "shell_exec",
                                         "command": "echo RAN"})["outcome"]
    assert outcome["denied"] is True
    assert outcome["reason"].startswith(f"{shell} does not load and no good version of it "
                                        "runs, so pre_shell_exec denies until it loads (it "
                                        "was going to guard pre_shell_exec)")
    assert f"{shell}:1:1: unexpected end of input" in outcome["reason"]
    # the points it does not name are not its to close (its policy is open by default)
    assert rt.fire("pre_file_read", {"path": "a"})["outcome"]["denied"] is False
    assert rt.fire("pre_tool", RM)["outcome"]["blocked"] is False


def test_the_points_its_last_good_version_registered_count_too(tmp_path):
    home = make_home(tmp_path, {"shell.scm": SHELL_GUARD})
    Runtime(home)
    [kept] = (home / ".harness-state" / "last-good").glob("*.src")
    kept.write_text("(")  # the kept version does not load either (digest mismatch: ignored)
    (home / "tools" / "shell.scm").write_text("(oops")  # names no point itself
    rt = Runtime(home, permission_handler=allow)
    assert rt.fire("pre_shell_exec", {"command": "x"})["outcome"]["denied"] is False
    # with a kept version that is whole but does not load now (it needs a tier the path
    # lost), its points still deny
    home2 = make_home(tmp_path / "b", {"shell.scm": "(import (harness io))\n" + SHELL_GUARD},
                      '[tools.tiers]\n"shell.scm" = "unsandboxed"\n')
    Runtime(home2)
    (home2 / "tools" / "shell.scm").write_text("(oops")
    (home2 / "harness.toml").write_text("")
    rt = Runtime(home2, permission_handler=allow)
    [failure] = rt.load_failures()
    assert "its last good version, saved" in failure["message"]
    assert rt.fire("pre_shell_exec", {"command": "x"})["outcome"]["denied"] is True
