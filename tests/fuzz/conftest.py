"""Print how many inputs the reader fuzz tests ran (issue 6 asks for the count)."""

import sys


def pytest_terminal_summary(terminalreporter) -> None:
    module = sys.modules.get("test_reader_fuzz")
    if module is not None and module.COUNTS["inputs"]:
        terminalreporter.write_line(module.summary_line())
