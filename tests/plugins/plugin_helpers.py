"""Helpers for plugin tests: where the sample plugins are, and how to install them."""

import shutil
from pathlib import Path

from harness.plugins.discovery import PluginFile

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "plugins"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "plugins"


def fixture_plugin(name: str) -> PluginFile:
    """A sample plugin of tests/fixtures/plugins, run in place."""
    return PluginFile(name, FIXTURES / name)


def install(plugins_dir: Path, name: str, source: Path = FIXTURES, as_name: str | None = None
            ) -> Path:
    """Copy a sample plugin (keeping its mode) into `plugins_dir`."""
    target = plugins_dir / (as_name or name)
    shutil.copy2(source / name, target)
    return target


def write_plugin(path: Path, text: str, mode: int = 0o755) -> Path:
    """Write an executable script; closed before it is made executable (no ETXTBSY)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path
