"""Plugins appearing and going, and harness.toml changes, while the runtime runs."""

from __future__ import annotations

import os
from pathlib import Path

from reload_helpers import blocking_hook, save_atomic

GUARD_PLUGIN = """#!/usr/bin/env python3
import json, os, sys
if sys.argv[1:] == ["--schema"]:
    print(json.dumps({"name": "guard_tool", "description": "d",
                      "parameters": {"type": "object", "properties": {}},
                      "hooks": ["pre_tool"]}))
elif os.environ.get("CHIBI_HOOK") == "pre_tool":
    print(json.dumps({"block": True, "message": "plugin says no"}))
else:
    print("ok")
"""

NEEDS_IO = "(import (harness io))\n" + blocking_hook("unsandboxed")
SANDBOXED_GUARD = blocking_hook("sandboxed")
ADMIN_TIER = '[tools.tiers]\n"admin/" = "unsandboxed"\n'


def install_plugin(path: Path, text: str) -> None:
    """Write beside, make executable, rename in: how package managers install."""
    staged = path.with_name(f".{path.name}.partial")
    staged.write_text(text)
    staged.chmod(0o755)
    os.replace(staged, path)


def test_plugin_added_and_removed(home: Path, live) -> None:
    lv = live()
    assert lv.verdict() is None
    plugin = home / "plugins" / "guard"
    install_plugin(plugin, GUARD_PLUGIN)
    lv.settle()
    assert lv.verdict() == "plugin says no"
    event = lv.events[-1]
    assert event["event"] == "plugins" and event["tools"] == ["guard_tool"]
    assert event["hooks"] == ["pre_tool"] and event["error"] is None
    plugin.unlink()
    lv.settle()
    assert lv.verdict() is None
    assert lv.events[-1]["event"] == "plugins" and lv.events[-1]["tools"] == []


def test_plugin_written_in_place_then_made_executable(home: Path, live) -> None:
    lv = live()
    plugin = home / "plugins" / "guard"
    plugin.write_text(GUARD_PLUGIN)
    lv.settle()
    assert lv.verdict() is None  # not executable yet
    plugin.chmod(0o755)  # an attribute change alone re-reads the plugins
    lv.settle()
    assert lv.verdict() == "plugin says no"


def test_config_change_moves_a_file_to_the_unsandboxed_tier(home: Path, live) -> None:
    admin = home / "tools" / "admin"
    admin.mkdir()
    (admin / "io.scm").write_text(NEEDS_IO)
    lv = live()
    assert lv.verdict() is None  # (harness io) is refused in the sandboxed tier
    assert "needs the unsandboxed tier" in lv.rt.load_errors[str(admin / "io.scm")]
    save_atomic(home / "harness.toml", ADMIN_TIER)
    lv.settle()
    assert lv.verdict() == "unsandboxed"
    assert lv.rt.config.tiers == {"admin/": "unsandboxed"}
    assert lv.kinds() == [("config", "harness.toml"), ("reloaded", "io.scm")]
    (home / "harness.toml").unlink()  # back to the defaults: sandboxed again, load fails
    lv.settle()
    assert lv.rt.config.tiers == {}
    assert lv.kinds()[-1] == ("failed", "io.scm")
    # its last good version ran with powers the configuration took away: it is unloaded
    assert lv.verdict() is None
    assert lv.rt.registry.get(str(admin / "io.scm")) is None
    assert "was unloaded: the path is sandboxed now" in lv.rt.load_errors[str(admin / "io.scm")]


def test_a_broken_edit_after_promotion_keeps_the_sandboxed_last_good(home: Path, live) -> None:
    admin = home / "tools" / "admin"
    admin.mkdir()
    (admin / "guard.scm").write_text(SANDBOXED_GUARD)
    lv = live()
    assert lv.verdict() == "sandboxed"
    (admin / "guard.scm").write_text("(register-hook 'pre_tool\n")  # broken, then promoted
    save_atomic(home / "harness.toml", ADMIN_TIER)
    lv.settle()
    assert lv.verdict() == "sandboxed"  # fewer powers than the path now allows: kept


def test_broken_config_keeps_the_old_one(home: Path, live) -> None:
    (home / "harness.toml").write_text(ADMIN_TIER)
    (home / "tools" / "guard.scm").write_text(blocking_hook("kept"))
    lv = live()
    (home / "harness.toml").write_text('[tools.tiers]\n"admin/" = "root"\n')
    lv.settle()
    (event,) = lv.events
    assert event["event"] == "failed" and "tier must be one of" in event["error"]
    assert lv.rt.config.tiers == {"admin/": "unsandboxed"}
    assert lv.verdict() == "kept"


def test_config_change_without_tier_change_reloads_no_file(home: Path, live) -> None:
    (home / "tools" / "guard.scm").write_text(blocking_hook("same"))
    lv = live()
    (home / "harness.toml").write_text("[plugins]\nhook_timeout = 5.0\n")
    lv.settle()
    assert lv.kinds() == [("config", "harness.toml")]
    assert lv.rt.plugins.hook_timeout == 5.0 and lv.verdict() == "same"
