"""Plugin discovery rules of SPEC §3."""

import logging
import os

from plugin_helpers import write_plugin

from harness.plugins.discovery import PluginFile, discover

SCRIPT = "#!/bin/sh\necho '{}'\n"


def names(plugins):
    return [p.name for p in plugins]


def test_executables_sorted_by_name(plugins_dir):
    for name in ("zeta", "alpha", "Mid", "beta_2"):
        write_plugin(plugins_dir / name, SCRIPT)
    assert names(discover(plugins_dir)) == ["Mid", "alpha", "beta_2", "zeta"]


def test_plain_files_disabled_dot_and_backup_files_are_skipped(plugins_dir):
    write_plugin(plugins_dir / "tool", SCRIPT)
    write_plugin(plugins_dir / "README.md", "notes", mode=0o644)
    write_plugin(plugins_dir / "old.disabled", SCRIPT)
    write_plugin(plugins_dir / ".hidden", SCRIPT)
    write_plugin(plugins_dir / "tool~", SCRIPT)
    problems = []
    assert names(discover(plugins_dir, problems)) == ["tool"]
    assert problems == []


def test_directory_plugin_means_x_slash_x(plugins_dir):
    inner = write_plugin(plugins_dir / "fancy" / "fancy", SCRIPT)
    write_plugin(plugins_dir / "fancy" / "helper.py", "", mode=0o644)
    plugins = discover(plugins_dir)
    assert plugins == [PluginFile("fancy", inner.resolve())]
    assert plugins[0].source == "plugin:fancy"


def test_directory_without_its_executable_is_reported(plugins_dir):
    (plugins_dir / "empty").mkdir()
    write_plugin(plugins_dir / "notexec" / "notexec", SCRIPT, mode=0o644)
    problems = []
    assert discover(plugins_dir, problems) == []
    assert [p["source"] for p in problems] == ["plugin:empty", "plugin:notexec"]
    assert "has no executable empty/empty" in problems[0]["message"]
    assert "is not an executable file" in problems[1]["message"]


def test_links_inside_the_directory_are_followed(plugins_dir):
    real = write_plugin(plugins_dir / "real", SCRIPT)
    os.symlink("real", plugins_dir / "alias")
    plugins = discover(plugins_dir)
    assert names(plugins) == ["alias", "real"]
    assert plugins[0].path == real.resolve()


def test_links_leaving_the_directory_are_refused(plugins_dir, tmp_path):
    outside = write_plugin(tmp_path / "elsewhere" / "evil", SCRIPT)
    os.symlink(outside, plugins_dir / "evil")
    os.symlink(outside.parent, plugins_dir / "evildir")  # a directory link: evildir/evildir
    write_plugin(outside.parent / "evildir", SCRIPT)
    write_plugin(plugins_dir / "good", SCRIPT)
    problems = []
    assert names(discover(plugins_dir, problems)) == ["good"]
    assert [p["source"] for p in problems] == ["plugin:evil", "plugin:evildir"]
    assert all("outside" in p["message"] for p in problems)


def test_broken_link_is_reported_not_fatal(plugins_dir):
    os.symlink("missing", plugins_dir / "dangling")
    write_plugin(plugins_dir / "ok", SCRIPT)
    problems = []
    assert names(discover(plugins_dir, problems)) == ["ok"]
    assert "broken link" in problems[0]["message"]


def test_missing_directory_has_no_plugins(tmp_path):
    assert discover(tmp_path / "nope") == []


def test_problems_are_logged_without_a_list(plugins_dir, caplog):
    os.symlink("/bin/sh", plugins_dir / "sh")
    with caplog.at_level(logging.WARNING, logger="harness.plugins"):
        assert discover(plugins_dir) == []
    assert "plugin:sh" in caplog.text
