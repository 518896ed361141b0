"""A fast R7RS-small Scheme that compiles to Python code."""
