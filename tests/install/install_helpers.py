"""Shared by the installer tests."""

#: what the installed commands start: a stand-in for the harness executable
PROGRAM = ["/opt/harness/bin/harness"]
