"""A fast R7RS-small Scheme that compiles to Python code."""

# errors.py, the bottom of the package, writes values into its messages with the printer,
# which needs it: importing the printer first hands errors its writers (errors.WRITERS)
from harness.scheme import printer  # noqa: F401
