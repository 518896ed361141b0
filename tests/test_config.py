"""harness.toml: values of the wrong kind are errors; tables and keys harness does not know
are warnings that name the closest known one (the settings they meant are not applied)."""

from __future__ import annotations

import pytest

from harness.config import Config, ConfigError, load_config


def config_of(tmp_path, text: str):
    path = tmp_path / "harness.toml"
    path.write_text(text)
    return load_config(path)


@pytest.mark.parametrize(("text", "warning"), [
    ("[limit.sandboxed]\nsteps = 5\n",
     "unknown table [limit.sandboxed] is ignored; did you mean [limits.sandboxed]?"),
    ("[plugins]\nhook_timout = 3\n",
     "unknown key hook_timout in [plugins] is ignored; did you mean hook_timeout?"),
    ("[limits.sandboxed]\nstep = 5\n",
     "unknown key step in [limits.sandboxed] is ignored; did you mean steps?"),
    ("[limits.sandboxd]\nsteps = 5\n",
     "unknown table [limits.sandboxd] is ignored; did you mean [limits.sandboxed]?"),
    ("[tools.tier]\n'a/' = 'unsandboxed'\n",
     "unknown table [tools.tier] is ignored; did you mean [tools.tiers]?"),
    ("hook_timeout = 3\n",
     ("unknown key hook_timeout at the top level is ignored; did you mean hook_timeout in "
      "[plugins]?")),
    ("[limits]\nsteps = 5\n",
     "unknown key steps in [limits] is ignored; did you mean steps in [limits.sandboxed]?"),
    ("[colours]\nprompt = 'red'\n", "unknown table [colours] is ignored"),
])
def test_unknown_names_are_warnings_with_the_closest_known_one(tmp_path, text, warning):
    config = config_of(tmp_path, text)
    assert config.warnings == [f"{tmp_path / 'harness.toml'}: {warning}"]


def test_what_an_unknown_name_meant_is_not_applied(tmp_path):
    config = config_of(tmp_path, "[limit.sandboxed]\nsteps = 5\n[plugins]\nhook_timout = 3\n")
    assert config.limits["sandboxed"].steps == 10_000_000
    assert config.hook_timeout == 30.0


def test_a_known_file_has_no_warnings(tmp_path):
    config = config_of(tmp_path, """\
[tools.tiers]
"admin/" = "unsandboxed"
[limits.sandboxed]
steps = 100
seconds = 2.0
max_output = 1000
memory_mb = 64
[limits.unsandboxed]
steps = false
[plugins]
hook_timeout = 5.0
tool_timeout = 5.0
schema_timeout = 1.0
concurrent_observers = false
[failure]
"plugin:audit" = "closed"
""")
    assert config.warnings == []
    assert config.limits["sandboxed"].steps == 100 and config.hook_timeout == 5.0


@pytest.mark.parametrize(("text", "message"), [
    ("[tools.tiers]\n'a/' = 'root'\n", "tier must be one of"),
    ("limits = 3\n", "limits must be tables"),
    ("[limits]\nsandboxed = 3\n", "limits.sandboxed must be a table"),
    ("plugins = 3\n", "plugins must be a table"),
    ("[plugins]\nhook_timeout = 'soon'\n", "plugins.hook_timeout must be a positive number"),
    ("[failure]\naudit = 'closed'\n", "keys are default, plugin:NAME"),
    ("[plugins\n", "harness.toml"),
])
def test_a_value_of_the_wrong_kind_is_an_error(tmp_path, text, message):
    with pytest.raises(ConfigError, match=message.replace("[", r"\[")):
        config_of(tmp_path, text)


@pytest.mark.parametrize("key, path, matches", [
    ("admin", "admin/x.scm", True), ("admin", "admin.scm", True), ("admin", "admin.hy", True),
    ("admin", "administrivia.scm", False), ("admin", "sub/admin.scm", False),
    ("admin/", "admin/x.scm", True), ("admin/", "admin.scm", False),
    ("guard.scm", "guard.scm", True), ("guard.scm", "guard.scm.bak/x.scm", False),
    ("guard.scm", "guard.scmx", False), ("", "anything.scm", True),
    ("a/b", "a/b/c.scm", True), ("a/b", "a/bc.scm", False)])
def test_tier_and_failure_keys_match_whole_path_components(key, path, matches):
    config = Config(tiers={key: "unsandboxed"}, failure={f"scm:{key}": "closed"})
    assert (config.tier_of(path) == "unsandboxed") is matches
    assert (config.failure_override(f"scm:/home/tools/{path}:3", "/home/tools") == "closed") \
        is matches


def test_a_toml_syntax_error_names_file_line_and_column_with_a_caret(tmp_path):
    path = tmp_path / "harness.toml"
    path.write_text('[plugins]\nhook_timeout = 30.0\n[tools.tiers\n"a" = "sandboxed"\n')
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == (f"{path}:3:13: Expected ']' at the end of a table declaration"
                               "\n[tools.tiers\n            ^")
