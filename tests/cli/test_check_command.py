"""``harness check``: tool files and directories of them, and a whole home (``--home``)."""

from __future__ import annotations

import json

from harness.runtime import Runtime

# -- files --------------------------------------------------------------------------------------


def test_check_a_good_file(harness, home):
    code, out, _ = harness("check", str(home / "tools" / "words.scm"), "--home", str(home))
    assert code == 0
    assert "words.scm: ok (sandboxed)" in out
    assert "tool word-count: Count the words of a text" in out
    assert "hook pre_tool (line 12)" in out


def test_check_takes_the_tier_from_the_home(harness, home):
    admin = str(home / "tools" / "admin" / "env.scm")
    code, out, _ = harness("check", admin, "--home", str(home))
    assert code == 0
    assert "env.scm: ok (unsandboxed)" in out
    code, out, _ = harness("check", admin, "--home", str(home), "--tier", "sandboxed")
    assert code == 1
    assert "needs the unsandboxed tier" in out


def test_check_a_broken_file_exits_1_with_its_position(harness, home, tmp_path):
    broken = tmp_path / "broken.scm"
    broken.write_text("(define x 1)\n(car x)\n")
    good = str(home / "tools" / "words.scm")
    code, out, _ = harness("check", str(broken), good, "--home", str(home))
    assert code == 1
    assert f"{broken}:2:1: car: expected a pair" in out
    assert "1 ok, 1 failed" in out


def test_check_a_missing_file(harness, home):
    code, out, _ = harness("check", str(home / "tools" / "missing.scm"), "--home", str(home))
    assert code == 1
    assert "missing.scm: cannot read" in out


def test_check_does_not_register_into_the_home(harness, home, tmp_path):
    extra = tmp_path / "extra.scm"
    extra.write_text("(define-tool extra (execute (lambda (args) \"x\")))")
    harness("check", str(extra), "--home", str(home))
    _, out, _ = harness("tools", "--json", "--home", str(home))
    assert "extra" not in {t["name"] for t in json.loads(out)}


def test_check_walks_a_directory(harness, home, tmp_path):
    (tmp_path / "lib" / "sub").mkdir(parents=True)
    (tmp_path / "lib" / "a.scm").write_text("(define-tool a (execute (lambda (x) \"a\")))")
    (tmp_path / "lib" / "sub" / "b.scm").write_text("(car '())")
    (tmp_path / "lib" / "notes.txt").write_text("not Scheme")
    code, out, _ = harness("check", str(tmp_path / "lib"), "--home", str(home))
    assert code == 1
    assert f"{tmp_path}/lib/a.scm: ok (sandboxed)" in out
    assert f"{tmp_path}/lib/sub/b.scm:1:1: car: expected a pair" in out
    assert "notes.txt" not in out
    assert out.splitlines()[-1] == "1 ok, 1 failed"


def test_check_a_directory_without_tool_files(harness, home, tmp_path):
    code, out, _ = harness("check", str(tmp_path), "--home", str(home))
    assert code == 1
    assert f"{tmp_path}: error: no tool files (.scm .hy .py) under this directory" in out
    code, out, _ = harness("check", str(home / "plugins"), "--home", str(home))
    assert code == 1


def test_check_files_needs_no_home_unless_one_is_named(harness, tmp_path, monkeypatch):
    monkeypatch.delenv("HARNESS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no ~/.harness here
    good = tmp_path / "good.scm"
    good.write_text("(+ 1 2)")
    code, out, _ = harness("check", str(good))
    assert code == 0 and "good.scm: ok (sandboxed)" in out
    code, _, err = harness("check", str(good), "--home", str(tmp_path / "typo"))
    assert code == 1 and "does not exist" in err


# -- a whole home -------------------------------------------------------------------------------


def test_a_clean_home_passes(harness, home):
    code, out, _ = harness("check", "--home", str(home))
    assert code == 0, out
    lines = out.splitlines()
    assert lines[0] == f"checking the home {home}"
    assert "tools/words.scm: ok: loads (sandboxed): tools word-count, explode; hooks pre_tool" \
        in lines
    assert "tools/admin/env.scm: ok: loads (unsandboxed): tools -; hooks on_start" in lines
    assert ("plugin:guard: ok: answers --schema: tools shout; hooks pre_tool, pre_shell_exec"
            in lines)
    assert lines[-1] == "0 errors, 0 warnings, 3 ok"


def test_every_problem_of_a_home_is_reported(harness, fresh_home):
    tools, plugins = fresh_home / "tools", fresh_home / "plugins"
    (tools / "broken.scm").write_text("(register-hook 'pre_tool\n")
    (tools / "twin.scm").write_text("(define-tool word-count (execute (lambda (a) \"2\")))")
    (tools / "shout.scm").write_text("(define-tool shout (execute (lambda (a) \"HEY\")))")
    (tools / "guard.scm.txt").write_text(";; renamed away by mistake")
    (plugins / "audit").write_text("#!/bin/sh\necho '{}'\n")  # chmod +x forgotten
    failing = plugins / "lint"
    failing.write_text("#!/bin/sh\necho 'lint: missing config' >&2\nexit 3\n")
    failing.chmod(0o755)
    (fresh_home / "plugin").mkdir()
    with (fresh_home / "harness.toml").open("a") as toml:
        toml.write("[limit.sandboxed]\nsteps = 5\n[plugins]\nhook_timout = 3\n")
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1
    assert f"tools/broken.scm: error:\n  {tools}/broken.scm:1:1: unexpected end of input" in out
    assert ("tools/twin.scm: warning: tool word-count is also defined in tools/words.scm: "
            "the one in tools/twin.scm is used (the first by path)") in out
    assert ("tools/shout.scm: warning: tool shout shadows the tool shout of plugin:guard "
            "(Scheme tools come first)") in out
    assert ("tools/guard.scm.txt: warning: is not loaded: tool files end in .scm, .hy or .py"
            in out)
    assert f"plugins/audit: warning: is not executable, so it is not a plugin (chmod +x " \
           f"{plugins}/audit" in out
    assert ("plugin:lint: error:\n  --schema exited with code 3; stderr: lint: missing config"
            in out)
    assert "plugin/: warning: is not read by harness; did you mean plugins?" in out
    assert ("harness.toml: warning: unknown table [limit.sandboxed] is ignored; did you mean "
            "[limits.sandboxed]?") in out
    assert ("harness.toml: warning: unknown key hook_timout in [plugins] is ignored; did you "
            "mean hook_timeout?") in out
    assert out.splitlines()[-1] == "2 errors, 7 warnings, 5 ok"


def test_a_home_check_as_json(harness, fresh_home):
    (fresh_home / "tools" / "notes.md").write_text("# notes")
    code, out, _ = harness("check", "--home", str(fresh_home), "--json")
    assert code == 1
    report = json.loads(out)
    assert (report["home"], report["errors"], report["warnings"]) == (str(fresh_home), 0, 1)
    assert {"severity": "warning", "where": "tools/notes.md",
            "message": "is not loaded: tool files end in .scm, .hy or .py"} \
        in report["findings"]


def test_check_words_a_misplaced_tool_file_as_the_dispatch_errors_do_with_the_mv(
        harness, fresh_home):
    misplaced = fresh_home / "tools" / "guard.sch"
    misplaced.write_text("(import (harness hooks))\n")
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1
    why = (f"is not loaded: tool files end in .scm, .hy or .py "
           f"(mv {misplaced} {fresh_home / 'tools' / 'guard.scm'})")
    assert f"tools/guard.sch: warning: {why}\n" in out
    _, _, err = harness("fire", "pre_tool", "{}", "--home", str(fresh_home))
    assert f"tools/guard.sch {why}" in err  # what fire says on stderr, word for word
    with Runtime(fresh_home) as runtime:
        errors = [e["message"] for e in runtime.fire("pre_tool", {})["errors"]]
    assert f"tools/guard.sch {why}" in errors


def test_a_malformed_harness_toml_is_an_error_and_the_rest_is_still_checked(harness,
                                                                           fresh_home):
    (fresh_home / "harness.toml").write_text("[tools.tiers]\n'x/' = 'root'\n")
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1
    assert "harness.toml: error:" in out and "tier must be one of" in out
    assert "(the other checks used the default settings)" in out
    assert "plugin:guard: ok" in out


def test_an_empty_or_missing_home(harness, tmp_path):
    code, out, _ = harness("check", "--home", str(tmp_path))
    assert code == 1
    assert ".: warning: has neither tools/ nor plugins/" in out
    code, _, err = harness("check", "--home", str(tmp_path / "typo"))
    assert code == 1 and "does not exist" in err


def test_check_runs_a_failed_schema_again_and_the_home_recovers(harness, fresh_home):
    # a --schema failure is remembered (a hanging one must not cost its timeout on every
    # command); harness check runs it again, and its answer is what the next start uses
    ready = fresh_home / "ready"
    plugin = fresh_home / "plugins" / "late"
    plugin.write_text(_late_plugin(ready))
    plugin.chmod(0o755)
    _, out, _ = harness("fire", "on_start", "{}", "--home", str(fresh_home))
    assert [e["source"] for e in json.loads(out)["errors"]] == ["plugin:late"]
    ready.touch()
    _, out, _ = harness("fire", "on_start", "{}", "--home", str(fresh_home))
    assert [e["source"] for e in json.loads(out)["errors"]] == ["plugin:late"], "cached"
    _, out, _ = harness("check", "--home", str(fresh_home))
    assert "plugin:late: ok: answers --schema" in out
    _, out, _ = harness("fire", "on_start", "{}", "--home", str(fresh_home))
    assert json.loads(out)["errors"] == []


def _late_plugin(ready) -> str:
    """A plugin whose --schema fails until the file ``ready`` exists."""
    return (f"#!/bin/sh\n[ \"$1\" = --schema ] || exit 0\n[ -e {ready} ] || exit 1\n"
            "echo '{\"name\": \"late\", \"description\": \"d\", \"hooks\": [\"on_start\"]}'\n")


def test_declared_handlers_are_checked(harness, fresh_home):
    (fresh_home / "hooks.toml").write_text(
        '[[PreToolUse]]\nmatcher = "Bash"\n[[PreToolUse.hooks]]\ntype = "command"\n'
        'command = "true"\n[[PreTolUse]]\n')
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1
    assert ("hooks.toml: error: PreTolUse: unknown event 'PreTolUse'; did you mean "
            "'PreToolUse'?") in out
    assert "handlers: ok: declared on PreToolUse" in out
    assert "hooks.toml: ok" not in out  # never "error" and "ok" for one file
    (fresh_home / "hooks.toml").write_text("[[PreToolUse]\n")
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1 and "hooks.toml: error:" in out


def test_a_settings_file_that_does_not_exist_is_a_warning(harness, fresh_home):
    (fresh_home / "harness.toml").write_text('[hooks]\nclaude_settings = ["setings.json"]\n'
                                             f'project_dir = "{fresh_home}"\n')
    code, out, _ = harness("check", "--home", str(fresh_home))
    assert code == 1
    assert ("setings.json: warning: does not exist, so it declares no handlers "
            "(named in harness.toml [hooks])") in out
    assert "hooks.toml" not in out  # the home's own hooks.toml is optional
