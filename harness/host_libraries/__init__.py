"""The Python halves of the (harness ...) Scheme libraries: the procedures Scheme code calls on
the host. The Scheme package imports nothing of them: what runs tool files or programs
offers them (``offer_to_scheme``)."""

from __future__ import annotations

from harness.scheme.primitives import add_library_source


def _register() -> None:
    # imported on the first library lookup, as the primitives are, not at start-up
    from harness.host_libraries import harness_procedures, vfs_procedures  # noqa: F401


def offer_to_scheme() -> None:
    """Make the (harness ...) libraries importable from Scheme (their procedures register
    when the first library is looked up)."""
    add_library_source(_register)
