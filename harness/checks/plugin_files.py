"""``plugins/``: every executable answers ``--schema`` well (failed ones are run again
here, not taken from the cache), and no file is left out by a missed ``chmod +x``."""

from __future__ import annotations

from collections.abc import Iterator

from harness.checks.finding import ERROR, OK, WARNING, Finding, HomeUnderCheck
from harness.plugins.discovery import not_executable


def check_plugin_files(subject: HomeUnderCheck) -> Iterator[Finding]:
    plugins = subject.runtime.plugins
    for path in not_executable(plugins.plugins_dir):
        if path.suffix in (".scm", ".hy"):  # a tool file put in the wrong folder
            yield Finding(WARNING, subject.relative(path), "is a tool file, not a plugin: "
                          f"tool files go in {subject.home / 'tools'}/")
            continue
        yield Finding(WARNING, subject.relative(path),
                      f"is not executable, so it is not a plugin (chmod +x {path}; or name "
                      f"it {path.name}.disabled to keep it here unused)")
    loaded = {plugin.source for plugin in plugins.plugins}
    for problem in plugins.problems:
        source = problem["source"]
        severity = WARNING if source in loaded or not source.startswith("plugin:") else ERROR
        yield Finding(severity, source, problem["message"]
                      + ("" if severity == WARNING else "\n(the plugin is not loaded)"))
    for plugin in plugins.plugins:
        tools = ", ".join(schema["name"] for schema in plugin.schemas) or "-"
        hooks = ", ".join(plugin.hooks) or "-"
        yield Finding(OK, plugin.source, f"answers --schema: tools {tools}; hooks {hooks}")
