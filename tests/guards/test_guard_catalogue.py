"""The catalogue of ready guards (tools/guards/): enabled by name in harness.toml, loaded
as a layer before the home's files, each one's fixtures passing through ``harness test``."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from harness.cli import test_command
from harness.config import ConfigError, load_config
from harness.guards import GUARDS_DIR, guard_names, guard_path
from harness.runtime import Runtime

EXPECTED = ["curl-pipe-shell", "destructive-deletes", "destructive-infra", "git-push",
            "outside-project", "secrets", "sudo"]


def make_home(tmp_path: Path, toml: str, tools: dict[str, str] | None = None) -> Path:
    home = tmp_path / "home"
    (home / "tools").mkdir(parents=True)
    (home / "harness.toml").write_text(toml, encoding="utf-8")
    for name, text in (tools or {}).items():
        (home / "tools" / name).write_text(text, encoding="utf-8")
    return home


def harness_test(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="harness")
    test_command.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["test", *argv])
    return args.run(args)


def shell(runtime: Runtime, command: str) -> dict:
    return runtime.fire("pre_shell_exec", {"tool_name": "shell_exec", "command": command})


def test_the_catalogue_lists_every_guard_with_its_fixtures():
    assert guard_names() == EXPECTED
    for name in EXPECTED:
        assert (GUARDS_DIR / f"{name}.hooktest.json").is_file(), name


@pytest.mark.parametrize("name", EXPECTED)
def test_each_guards_fixtures_pass_with_only_that_guard(tmp_path, name, capsys):
    home = make_home(tmp_path, f'[guards]\nenable = ["{name}"]\n')
    status = harness_test(str(GUARDS_DIR / f"{name}.hooktest.json"), "--home", str(home))
    out = capsys.readouterr().out
    assert status == 0, out
    assert " 0 failed" in out and "FAIL" not in out


def test_every_fixture_passes_with_all_guards_enabled(tmp_path, capsys):
    home = make_home(tmp_path, '[guards]\nenable = "all"\n')
    assert harness_test(str(GUARDS_DIR), "--home", str(home)) == 0, capsys.readouterr().out


def test_an_enabled_guard_denies_pre_shell_exec_and_names_itself(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = ["destructive-deletes", "sudo"]\n')
    with Runtime(home) as runtime:
        result = shell(runtime, "sudo rm -rf /var/lib/app")
        assert result["outcome"]["denied"] is True
        assert result["outcome"]["decided_by"] == "hook"
        assert result["outcome"]["reason"].startswith("harness guard destructive-deletes: ")
        assert result["errors"] == []
        sources = [a["source"] for a in result["answers"]]
        assert sources[0].startswith(f"scm:{guard_path('destructive-deletes')}:")
        assert shell(runtime, "ls -la")["outcome"]["decided_by"] == "fail-safe"


def test_a_guard_that_is_not_enabled_does_not_run(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = ["sudo"]\n')
    with Runtime(home) as runtime:
        assert shell(runtime, "rm -rf build")["outcome"]["decided_by"] == "fail-safe"
        assert {h["source"].split(":")[1] for h in runtime.hooks()} == {str(guard_path("sudo"))}


def test_all_enables_every_guard(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = "all"\n')
    with Runtime(home) as runtime:
        files = {Path(h["source"].split(":")[1]).stem for h in runtime.hooks()}
    assert files == set(EXPECTED)


def test_an_unknown_guard_is_an_error_at_its_place_naming_the_closest(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = ["sudo", "secret"]\n')
    with pytest.raises(ConfigError) as caught:
        load_config(home / "harness.toml")
    message = str(caught.value)
    assert message.startswith(f"{home / 'harness.toml'}:2:19: ")
    assert "unknown guard 'secret'; did you mean 'secrets'?" in message


def test_enable_must_be_names(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = [1]\n')
    with pytest.raises(ConfigError, match="list of guard names"):
        load_config(home / "harness.toml")


def test_a_misspelt_guards_key_is_a_warning(tmp_path):
    home = make_home(tmp_path, '[guards]\nenabled = ["sudo"]\n')
    warnings = load_config(home / "harness.toml").warnings
    assert any("did you mean enable?" in w for w in warnings), warnings


def test_guards_run_before_the_homes_hooks(tmp_path):
    own = """(register-hook 'pre_shell_exec
  (lambda (p) (list (cons "denied" #t) (cons "reason" "the home says no"))))"""
    home = make_home(tmp_path, '[guards]\nenable = ["sudo"]\n', {"aaa.scm": own})
    with Runtime(home) as runtime:
        result = shell(runtime, "sudo id")
        assert result["outcome"]["reason"].startswith("harness guard sudo:")
        assert [h["source"].split(":")[1] for h in runtime.hooks()] == \
            [str(guard_path("sudo")), "tools/aaa.scm"]


def test_guards_load_sandboxed_whatever_the_tiers_say(tmp_path):
    home = make_home(tmp_path, '[guards]\nenable = ["sudo"]\n[tools.tiers]\n"" = "unsandboxed"\n'
                               f'"{GUARDS_DIR}" = "unsandboxed"\n')
    with Runtime(home) as runtime:
        assert runtime.registry.get(str(guard_path("sudo"))).tier == "sandboxed"


def test_changing_enable_loads_and_unloads_guards_live(tmp_path):
    from harness.reload.apply import Reloader
    home = make_home(tmp_path, '[guards]\nenable = ["sudo"]\n')
    with Runtime(home) as runtime:
        reloader = Reloader(runtime, lambda: None)
        (home / "harness.toml").write_text('[guards]\nenable = ["git-push"]\n')
        reloader.reload_config(str(home / "harness.toml"))
        assert shell(runtime, "sudo id")["outcome"]["decided_by"] == "fail-safe"
        assert shell(runtime, "git push -f")["outcome"]["decided_by"] == "hook"
        (home / "harness.toml").write_text("")
        reloader.reload_config(str(home / "harness.toml"))
        assert runtime.hooks() == []


def test_outside_project_uses_project_directory_without_a_cwd(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    home = make_home(tmp_path, f'[guards]\nenable = ["outside-project"]\n'
                               f'[tools]\nproject_root = "{project}"\n')
    with Runtime(home) as runtime:
        def write(path: str) -> str:
            return runtime.fire("pre_file_write", {"tool_name": "write_file", "path": path,
                                                   "content": ""})["outcome"]["decided_by"]
        assert write(str(project / "src" / "a.py")) == "fail-safe"
        assert write("src/a.py") == "fail-safe"
        assert write("/srv/elsewhere.txt") == "hook"
        assert write("../elsewhere.txt") == "fail-safe"  # /tmp/... : a temporary folder


def test_check_reports_each_enabled_guard(tmp_path):
    from harness.checks import OK, check_home
    home = make_home(tmp_path, '[guards]\nenable = ["secrets", "sudo"]\n')
    findings = [f for f in check_home(home) if f.where.startswith("guard:")]
    assert [(f.severity, f.where) for f in findings] == [(OK, "guard:secrets"),
                                                         (OK, "guard:sudo")]
    assert "pre_file_read, pre_file_write, pre_shell_exec" in findings[0].message


def test_the_smallest_guard_of_the_docs_works(tmp_path):
    docs = (Path(__file__).parents[2] / "docs" / "guides" / "guards.md").read_text(encoding="utf-8")
    example = docs.split("```scheme\n")[-1].split("```")[0]
    home = make_home(tmp_path, "", {"no-shutdown.scm": example})
    with Runtime(home) as runtime:
        assert runtime.load_errors == {}
        denied = shell(runtime, "sudo shutdown -h now")["outcome"]
        assert denied["reason"] == ("harness guard no-shutdown: the agent may not shut the "
                                    "machine down")
        assert shell(runtime, "uptime")["outcome"]["decided_by"] == "fail-safe"
