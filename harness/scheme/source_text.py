"""The text of a Scheme source file: UTF-8, where a byte that is not is a read error at its
FILE:LINE:COL (not a codec's "position 12"), and a leading byte order mark is no part of
the program (``run_source`` skips it)."""

from __future__ import annotations

from harness.scheme.errors import ReadError, SourcePos

#: U+FEFF, which some editors put at the start of a UTF-8 file
BYTE_ORDER_MARK = "\ufeff"


def decode_source(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text; a ReadError names the place of the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")
                         .removeprefix(BYTE_ORDER_MARK)) + 1
        raise ReadError(f"this file is not UTF-8 text (byte 0x{data[exc.start]:02x} here); "
                        "save it as UTF-8", SourcePos(name, before.count(b"\n") + 1, column)
                        ) from None
