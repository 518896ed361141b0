"""``harness check [PATH...] [--home DIR]``: load tool files without registering them, or
check a whole home.

With PATHs, each file (a directory: every tool file under it) is loaded in its tier (from
the home's harness.toml when there is a home, else sandboxed; ``--tier`` overrides) and
reported with its tools, hooks and ``FILE:LINE:COL`` errors; exit 1 on any error. Without
PATHs, the whole home is checked (``harness.checks``: its layout, harness.toml, tool files,
plugins and what other features add); exit 1 on any error or warning.
"""

from __future__ import annotations

import os
from pathlib import Path

from harness.cli.exit_status import FAILED, OK
from harness.cli.hook_commands import UsageError, home_option, to_json, usage_errors


def register(sub) -> None:
    check = sub.add_parser(
        "check", help="check tool files, directories of them, or (no PATH) a whole home",
        description="Load tool files in their tiers and report their tools, hooks and "
                    "errors; with no PATH, check the whole home: harness.toml, every tool "
                    "file, stray files in tools/, tools defined twice, plugins, declared "
                    "handlers. Exit status 1 on any error (and, for a home, any warning).")
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="tool files or directories of them (default: the whole home)")
    check.add_argument("--tier", choices=("sandboxed", "unsandboxed"), default=None,
                       help="load PATHs in this tier (default: from the home's harness.toml)")
    check.add_argument("--json", action="store_true",
                       help="with no PATH: print the findings as JSON")
    home_option(check)
    check.set_defaults(run=_check)


@usage_errors
def _check(args) -> int:
    if not args.paths:
        if args.tier is not None:
            raise UsageError("--tier applies to PATHs; a home's files load in the tiers of "
                             "its harness.toml")
        return _check_home(args)
    if args.json:
        raise UsageError("--json applies to a whole home (no PATH)")
    return _check_paths(args)


# -- a whole home ---------------------------------------------------------------------------------
def _check_home(args) -> int:
    from harness.checks import ERROR, WARNING, check_home
    from harness.checks import OK as FINE
    from harness.runtime import resolve_home
    home = resolve_home(args.home)
    findings = check_home(home)
    errors = sum(f.severity == ERROR for f in findings)
    warnings = sum(f.severity == WARNING for f in findings)
    if args.json:
        print(to_json({"home": str(home), "errors": errors, "warnings": warnings,
                       "findings": [f.as_json() for f in findings]}))
    else:
        print(f"checking the home {home}")
        for finding in findings:
            print(_finding_text(finding.severity, finding.where, finding.message))
        fine = sum(f.severity == FINE for f in findings)
        print(f"{_count(errors, 'error')}, {_count(warnings, 'warning')}, {fine} ok")
    return FAILED if errors or warnings else OK


def _finding_text(severity: str, where: str, message: str) -> str:
    first, *rest = message.splitlines() or [""]
    if not rest:
        return f"{where}: {severity}: {first}"
    return f"{where}: {severity}:\n" + "\n".join(f"  {line}" for line in (first, *rest))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


# -- files and directories --------------------------------------------------------------------------
def _check_paths(args) -> int:
    from harness.config import Config, HomeNotFoundError, load_config
    from harness.loading.loader import TOOL_SUFFIXES, ToolLoadError, load_tool_file
    from harness.reload.files import tool_files_under
    from harness.runtime import resolve_home
    home = resolve_home(args.home)
    if home.is_dir():
        config = load_config(home / "harness.toml")
    elif args.home is not None or os.environ.get("HARNESS_HOME"):
        raise HomeNotFoundError(home)  # named on purpose: a typo, not "no home"
    else:
        config = Config()  # checking files needs no home
    checked = failures = 0
    for name in args.paths:
        path = Path(name)
        files = [path]
        if path.is_dir():
            files = [Path(f) for f in tool_files_under(str(path))]
            if not files:
                failures += 1
                print(f"{name}: error: no tool files ({' '.join(TOOL_SUFFIXES)}) under this "
                      "directory" + _home_hint(path))
                continue
        for file in files:
            checked += 1
            tier = args.tier or _tier_in_home(file, home / "tools", config)
            try:
                reg = load_tool_file(file, tier, config.limits[tier])
            except ToolLoadError as exc:
                failures += 1
                print(f"{file}: error ({tier})\n{exc.message}")
                continue
            print(f"{file}: ok ({tier})")
            for tool in reg.tools:
                print(f"  tool {tool.name}" + (f": {tool.description}" if tool.description
                                               else ""))
            for hook in reg.hooks:
                print(f"  hook {hook.point} (line {hook.line})")
    if checked > 1 or failures > 1:
        print(f"{checked - failures} ok, {failures} failed")
    return FAILED if failures else OK


def _home_hint(path: Path) -> str:
    if (path / "tools").is_dir() or (path / "plugins").is_dir() or (path / "harness.toml"
                                                                    ).is_file():
        return f" (it looks like a home: harness check --home {path} checks it whole)"
    return ""


def _tier_in_home(path: Path, tools_dir: Path, config) -> str:
    """The tier ``harness.toml`` gives ``path`` under HOME/tools; elsewhere sandboxed."""
    try:
        relative = path.resolve().relative_to(tools_dir.resolve())
    except ValueError:
        return "sandboxed"
    return config.tier_of(relative.as_posix())
