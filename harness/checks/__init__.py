"""``harness check --home DIR``: everything that can be wrong with a home, as findings.

A check is a function from a ``HomeUnderCheck`` to ``Finding``s; ``HOME_CHECKS`` lists them
in the order their findings are shown. A feature that reads something more from a home (a
new kind of file, a new source of hooks) appends its own check to ``HOME_CHECKS``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from harness.checks.builtin_layer import check_builtin_layer
from harness.checks.config_file import check_config_file
from harness.checks.declared_handlers import check_declared_handlers
from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck
from harness.checks.guard_layer import check_guard_layer
from harness.checks.installed_hosts import check_installed_hosts
from harness.checks.layout import check_layout
from harness.checks.plugin_files import check_plugin_files
from harness.checks.tool_files import check_tool_files
from harness.config import Config, ConfigError, HomeNotFoundError, load_config

__all__ = ["ERROR", "HOME_CHECKS", "OK", "WARNING", "Finding", "HomeCheck", "HomeUnderCheck",
           "check_home"]

HomeCheck = Callable[[HomeUnderCheck], Iterable[Finding]]

#: the checks of a home, in the order their findings are shown
HOME_CHECKS: list[HomeCheck] = [check_layout, check_config_file, check_guard_layer,
                                check_tool_files, check_plugin_files,
                                check_declared_handlers, check_builtin_layer,
                                check_installed_hosts]


def check_home(home: str | os.PathLike | None = None) -> list[Finding]:
    """Every finding of every check of HOME_CHECKS about ``home`` (resolved as the Runtime
    does). Raises HomeNotFoundError; a check that fails is itself an error finding."""
    from harness.runtime import Runtime, resolve_home
    root = resolve_home(home)
    if not root.is_dir():
        raise HomeNotFoundError(root)
    config_error = None
    try:
        config = load_config(root / "harness.toml")
    except ConfigError as exc:
        config, config_error = Config(), str(exc)
    runtime = Runtime(root, config=config, retry_failed_plugins=True)
    try:
        subject = HomeUnderCheck(root, config, config_error, runtime)
        findings: list[Finding] = []
        for check in HOME_CHECKS:
            try:
                findings.extend(check(subject))
            except Exception as exc:  # noqa: BLE001 - one broken check must not hide the rest
                findings.append(Finding(ERROR, ".", f"{check.__name__} failed: "
                                                    f"{type(exc).__name__}: {exc}"))
        return findings
    finally:
        runtime.close()
