"""The build's one addition to pyproject.toml: a wheel carries the folders harness ships
beside its package (scheme_lib/, tools/, examples/) inside it, as harness/_shipped/NAME,
where harness.shipped finds them. An editable install reads them from the checkout."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ("scheme_lib", "tools", "examples")


class BuildWithShippedFolders(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        root = Path(__file__).resolve().parent
        for name in SHIPPED:
            target = Path(self.build_lib) / "harness" / "_shipped" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(root / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildWithShippedFolders})
