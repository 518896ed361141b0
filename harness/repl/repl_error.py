"""The one error of the REPL's own: what the user typed cannot be done."""


class ReplError(Exception):
    """Something the user typed cannot be done; the message is shown as is."""
