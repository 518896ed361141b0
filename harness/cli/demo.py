"""``harness demo``: the README's main job — show harness at work on the examples."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def register(sub) -> None:
    demo = sub.add_parser("demo", help="run the examples and show what they do")
    demo.set_defaults(run=_demo)


def _demo(args) -> int:
    from harness.cli.scheme_commands import run_program
    print("== Scheme tour (examples/scheme/tour.scm)")
    return run_program(EXAMPLES / "scheme" / "tour.scm")
