"""``harness fire|call|tools|hooks|check`` against a temporary home."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_harness

from harness.cli.hook_commands import to_json

# -- fire ---------------------------------------------------------------------------------


def test_fire_prints_the_dispatch_result_as_json(harness, home):
    code, out, err = harness("fire", "pre_tool", '{"tool_name": "forbidden"}', "--home",
                             str(home))
    assert code == 2, err  # the outcome blocks
    result = json.loads(out)
    assert result["hook"] == "pre_tool"
    assert result["outcome"]["blocked"] is True
    assert result["outcome"]["message"] == "not today"
    assert result["answers"][0] == {"source": "plugin:guard",
                                    "answer": {"block": True, "message": "not today"}}
    assert result["errors"] == []


def test_fire_compact_prints_one_line(harness, home):
    code, out, _ = harness("fire", "on_start", "{}", "--home", str(home), "--compact")
    assert code == 0
    assert out.count("\n") == 1
    assert json.loads(out)["outcome"] == {}


def test_fire_reads_the_payload_from_stdin(harness, home):
    payload = json.dumps({"tool_name": "word-count", "arguments": {"text": "x"}})
    code, out, err = harness("fire", "pre_tool", "-", "--home", str(home), stdin=payload)
    assert code == 0, err
    outcome = json.loads(out)["outcome"]
    assert outcome["arguments"] == {"text": "one two three four"}


def test_fire_takes_the_home_from_the_environment(harness, home, monkeypatch):
    monkeypatch.setenv("HARNESS_HOME", str(home))
    code, out, _ = harness("fire", "pre_tool", '{"tool_name": "forbidden"}', "--compact")
    assert code == 2
    assert json.loads(out)["outcome"]["blocked"] is True


def test_fire_without_payload_and_with_trace(harness, home):
    code, out, err = harness("fire", "pre_tool", "--home", str(home), "--trace")
    assert code == 0
    assert "using the sample payload of pre_tool" in err
    result = json.loads(out)
    assert result["outcome"]["arguments"] == {"command": "ls -la src"}  # the sample's
    assert [entry["source"] for entry in result["trace"]] == [
        "plugin:guard", "scm:tools/words.scm:12"]


def test_fire_permission_hook_is_denied_without_allow_and_approved_with_it(harness, home):
    payload = '{"tool_name": "shell_exec", "command": "ls"}'
    code, out, _ = harness("fire", "pre_shell_exec", payload, "--home", str(home))
    assert json.loads(out)["outcome"]["denied"] is True
    assert code == 2  # a deny exits 2, as a block does
    code, out, _ = harness("fire", "pre_shell_exec", payload, "--home", str(home), "--allow")
    assert json.loads(out)["outcome"] == {"denied": False, "reason": None,
                                          "decided_by": "handler"}
    assert code == 0


def test_fire_unknown_hook_exits_1_with_a_suggestion(harness, home):
    code, out, err = harness("fire", "pre_tol", "{}", "--home", str(home))
    assert code == 1
    assert out == ""
    assert "unknown hook point 'pre_tol'" in err
    assert "did you mean 'pre_tool'?" in err


def test_fire_malformed_payload_exits_1_with_the_position(harness, home):
    code, out, err = harness("fire", "pre_tool", '{"tool_name": x}', "--home", str(home))
    assert code == 1
    assert out == ""
    assert "payload:1:15: invalid JSON: " in err
    assert err.endswith('{"tool_name": x}\n' + " " * 14 + "^\n")


def test_fire_payload_must_be_an_object(harness, home):
    code, _, err = harness("fire", "pre_tool", "[1, 2]", "--home", str(home))
    assert code == 1
    assert "must be a JSON object" in err


def test_fire_reports_a_broken_harness_toml(harness, fresh_home):
    (fresh_home / "harness.toml").write_text("[tools.tiers]\n'x/' = 'root'\n")
    code, _, err = harness("fire", "on_start", "--home", str(fresh_home))
    assert code == 1
    assert "tier must be one of" in err


def test_fire_lists_a_file_that_failed_to_load_in_errors(harness, fresh_home):
    # in a fresh process a broken guard is never silent: the result itself says so
    (fresh_home / "tools" / "guard.scm").write_text("(register-hook 'pre_tool\n")
    code, out, err = harness("fire", "pre_tool", '{"tool_name": "x", "arguments": {}}',
                             "--home", str(fresh_home))
    assert code == 0
    [error] = json.loads(out)["errors"]
    assert error["source"] == "scm:tools/guard.scm"
    assert f"{fresh_home}/tools/guard.scm:1:1: unexpected end of input" in error["message"]
    assert "guard.scm:1:1" in err  # and on stderr for whoever reads it


def test_fire_exits_2_when_pre_tool_output_is_blocked(harness, fresh_home):
    (fresh_home / "tools" / "redact.scm").write_text(
        "(register-hook 'pre_tool_output (lambda (p) (list (cons \"block\" #t))))")
    code, out, _ = harness("fire", "pre_tool_output", "--home", str(fresh_home))
    assert code == 2
    assert json.loads(out)["outcome"]["blocked"] is True


def test_a_home_that_does_not_exist_is_an_error(harness, tmp_path, monkeypatch):
    missing = tmp_path / "typo"
    for argv in (["fire", "on_start", "{}"], ["tools"], ["hooks"], ["call", "x"], ["serve"]):
        code, out, err = harness(*argv, "--home", str(missing))
        assert code == 1, argv
        assert out == ""
        assert f"harness home {missing} does not exist" in err
    monkeypatch.setenv("HARNESS_HOME", str(missing))
    code, _, err = harness("fire", "on_start", "{}")
    assert code == 1 and "does not exist" in err


def test_bad_options_exit_1_never_2(harness, home, capsys):
    # for fire, 2 means "blocked": a typo must not read as a block
    for argv in (["fire", "pre_tool", "{}", "--hme", str(home)], ["fire"], ["nope"]):
        with pytest.raises(SystemExit) as info:
            harness(*argv)
        assert info.value.code == 1, argv
    assert "unrecognized arguments: --hme" in capsys.readouterr().err


def test_harness_toml_keys_harness_does_not_know_are_warned_about(harness, fresh_home):
    (fresh_home / "harness.toml").write_text("[plugins]\nhook_timout = 3\n")
    code, _, err = harness("hooks", "--home", str(fresh_home))
    assert code == 0
    assert ("unknown key hook_timout in [plugins] is ignored; did you mean hook_timeout?"
            in err)


# -- sample and the catalogue ---------------------------------------------------------------


def test_sample_prints_the_payload_as_json_and_the_doc_on_stderr(harness):
    from harness.hooks.catalogue import HOOK_POINTS
    code, out, err = harness("sample", "pre_tool")
    assert code == 0
    assert json.loads(out) == HOOK_POINTS["pre_tool"].sample
    assert "; pre_tool: fires before a tool runs" in err
    assert "; answer keys: block message arguments" in err


def test_sample_of_an_unknown_hook_suggests_the_closest(harness):
    code, out, err = harness("sample", "pre_tol")
    assert code == 1 and out == ""
    assert "did you mean 'pre_tool'?" in err


def test_a_sample_piped_into_fire(home):
    sample = run_harness("sample", "pre_shell_exec")
    done = run_harness("fire", "pre_shell_exec", "-", "--home", str(home), "--compact",
                       stdin=sample.stdout)
    assert done.returncode == 2, done.stderr  # no permission handler: the fail-safe deny
    assert json.loads(done.stdout)["outcome"]["decided_by"] == "fail-safe"


def test_hooks_all_lists_every_hook_point(harness):
    from harness.hooks.catalogue import HOOK_POINTS
    code, out, _ = harness("hooks", "--all")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["HOOK", "ANSWER", "KEYS", "WHEN"]
    own = [name for name, point in HOOK_POINTS.items() if point.combine != "host"]
    listed = [line.split()[0] for line in lines[1:len(own) + 1]]
    assert listed == own
    assert "  codex: PreToolUse PermissionRequest UserPromptSubmit" in out
    assert any(line.split()[:4] == ["pre_tool", "block", "message", "arguments"]
               for line in lines)
    # Claude Code's keys common to every event are said once, so the table stays narrow
    assert any(line.split()[:5] == ["PreToolUse", "+", "decision", "reason",
                                    "hookSpecificOutput"] for line in lines)
    assert "+ : Claude Code's common keys too (continue " in out
    assert lines[0].index("WHEN") < 90, "the answer keys column stays narrow"
    code, out, _ = harness("hooks", "--all", "--json")
    catalogue = json.loads(out)
    assert [p["hook"] for p in catalogue] == list(HOOK_POINTS)
    assert catalogue[0]["fields"] == ["harness_home", "chibi_home", "project_root", "tool_count"]


# -- call -----------------------------------------------------------------------------------


def test_call_a_scheme_tool_through_the_hook_stack(harness, home):
    # the pre_tool hook of words.scm rewrites the arguments to four words
    code, out, err = harness("call", "word-count", '{"text": "a b"}', "--home", str(home))
    assert code == 0
    assert out == "4\n"
    assert "counting" in err  # the tool's display output is diagnostics


def test_call_a_plugin_tool(harness, home):
    code, out, _ = harness("call", "shout", '{"text": "hey"}', "--home", str(home))
    assert code == 0
    assert out == "HEY\n"


def test_call_json_prints_the_whole_result(harness, home):
    code, out, _ = harness("call", "word-count", "--json", "--home", str(home))
    assert code == 0
    assert json.loads(out) == {"tool": "word-count", "output": "4", "error": None,
                               "blocked": False, "stdout": "counting", "stderr": "",
                               "errors": [], "context": "default", "denied": False,
                               "cached": False}


def test_call_a_failing_tool_exits_1(harness, home):
    code, out, err = harness("call", "explode", "--home", str(home))
    assert code == 1
    assert out == ""
    assert "car: expected a pair" in err


def test_call_an_unknown_tool_exits_1(harness, home):
    code, out, err = harness("call", "nope", "{}", "--home", str(home))
    assert code == 1
    assert out == ""
    assert "unknown tool 'nope'" in err


def test_call_a_blocked_tool_exits_1(harness, home):
    code, out, err = harness("call", "forbidden", "--home", str(home))
    assert code == 1
    assert out == ""
    assert "blocked: not today" in err


def test_call_malformed_arguments_exit_1(harness, home):
    code, _, err = harness("call", "shout", "{text}", "--home", str(home))
    assert code == 1
    assert "arguments:1:2: invalid JSON: " in err


# -- tools and hooks ------------------------------------------------------------------------


def test_tools_table(harness, home):
    code, out, _ = harness("tools", "--home", str(home))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "SOURCE", "DESCRIPTION"]
    assert lines[1].split(None, 2) == ["word-count", "scm:tools/words.scm",
                                       "Count the words of a text"]
    assert lines[3].split(None, 2) == ["shout", "plugin:guard", "Upper-case a text"]


def test_tools_json(harness, home):
    code, out, _ = harness("tools", "--json", "--home", str(home))
    assert code == 0
    tools = {t["name"]: t for t in json.loads(out)}
    assert set(tools) == {"word-count", "explode", "shout"}
    assert tools["word-count"]["parameters"]["required"] == ["text"]
    assert tools["shout"]["source"] == "plugin:guard"


def test_hooks_table_and_json(harness, home):
    code, out, _ = harness("hooks", "--home", str(home))
    assert code == 0
    rows = [line.split() for line in out.splitlines()]
    assert rows == [["HOOK", "SOURCE"], ["on_start", "scm:tools/admin/env.scm:2"],
                    ["pre_tool", "plugin:guard"], ["pre_tool", "scm:tools/words.scm:12"],
                    ["pre_shell_exec", "plugin:guard"]]
    code, out, _ = harness("hooks", "--json", "--home", str(home))
    assert json.loads(out)[1] == {"hook": "pre_tool", "source": "plugin:guard"}


def test_listing_reports_load_errors_on_stderr(harness, fresh_home):
    (fresh_home / "tools" / "bad.scm").write_text("(define x\n")
    code, out, err = harness("tools", "--home", str(fresh_home))
    assert code == 0
    assert "word-count" in out
    assert f"{fresh_home}/tools/bad.scm:1:1:" in err


def test_empty_home(harness, tmp_path):
    code, out, _ = harness("hooks", "--home", str(tmp_path))
    assert code == 0
    assert out.startswith("no hooks in")
    assert "harness hooks --all lists the hook points" in out


# -- the real command ------------------------------------------------------------------------


def test_subprocess_fire_from_stdin(home):
    done = run_harness("fire", "pre_tool", "-", "--home", str(home), "--compact",
                       stdin='{"tool_name": "forbidden"}')
    assert done.returncode == 2, done.stderr
    assert json.loads(done.stdout)["outcome"]["blocked"] is True


def test_json_output_keeps_big_integers_exact():
    value = {"n": 2**70, "s": "é"}
    assert json.loads(to_json(value)) == value
    assert to_json(value, compact=True) == '{"n":1180591620717411303424,"s":"é"}'
