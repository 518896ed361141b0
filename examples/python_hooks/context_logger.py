"""context_logger.py: logs context switches, and which context each message goes to, to
HOME/vfs/context_log.txt. The Python twin of examples/plugins/context_logger. Needs the
unsandboxed tier (it writes a file).
"""

from harness.api import home, hook


def log_line(text: str) -> None:
    log_file = home() / "vfs" / "context_log.txt"
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("a", encoding="utf-8") as f:
        f.write(text + "\n")


@hook("on_context_switch")
def log_switch(payload: dict) -> None:
    log_line(f"{payload['from_context']} -> {payload['to_context']}")


@hook("pre_message")
def log_message(payload: dict) -> None:
    log_line(f"message in {payload['context_name']}")
