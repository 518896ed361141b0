"""The argument parser of ``harness``: argparse, with bad input exiting 1 instead of 2."""

from __future__ import annotations

import argparse
import sys

from harness.cli.exit_status import FAILED


class HarnessParser(argparse.ArgumentParser):
    """argparse with bad input exiting FAILED (1), not 2: for ``harness fire`` 2 means that
    the outcome blocks, and a typo must never read as a block. Subcommands' parsers are of
    this class too (argparse makes them of their parent's)."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(FAILED, f"{self.prog}: error: {message}\n")
