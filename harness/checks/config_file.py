"""``harness.toml``: malformed (an error), or naming tables and keys harness does not know
(a warning each, with the closest known name)."""

from __future__ import annotations

from collections.abc import Iterator

from harness.checks.finding import ERROR, WARNING, Finding, HomeUnderCheck

CONFIG_FILE = "harness.toml"


def check_config_file(subject: HomeUnderCheck) -> Iterator[Finding]:
    if subject.config_error is not None:
        yield Finding(ERROR, CONFIG_FILE, subject.config_error
                      + "\n(the other checks used the default settings)")
    prefix = f"{subject.home / CONFIG_FILE}: "
    for warning in subject.config.warnings:
        yield Finding(WARNING, CONFIG_FILE, warning.removeprefix(prefix))
