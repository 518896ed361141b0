"""Ports: (scheme base) port procedures, (scheme write), (scheme read), (scheme file).

Every port is one of four kinds — textual or binary, input or output. An input port reads
from a buffer that a ``fill`` function tops up (a string port starts full and has no
fill); an output port either collects what it is given in memory (string and bytevector
ports, capped at ``MAX_OUTPUT``) or writes it through to a Python stream.

The current ports are parameters. The console ports look ``sys.stdout`` / ``sys.stderr``
/ ``sys.stdin`` up at each use, so redirecting those in Python redirects Scheme output too;
the runtime parameterizes them with string ports to capture what one call prints.
"""

from __future__ import annotations

import atexit
import os
import re
import select
import sys
import threading
import weakref
from collections.abc import Callable

from harness.scheme.datatypes import DEFAULT, EOF, Bytevector, Char, String
from harness.scheme.errors import SchemeError, SizeLimitExceeded, error, wrong_type
from harness.scheme.parameters import (
    make_parameter,
    pop_binding,
    push_binding,
    thread_bindings,
)
from harness.scheme.primitives import define, primitive
from harness.scheme.primitives.numbers import as_int
from harness.scheme.printer import (
    MAX_WRITTEN_CHARS,
    display_string,
    write_shared_string,
    write_simple_string,
    write_string,
    write_truncated,
)

# typing is for type checkers only: importing it costs ~2 ms of every harness
# process's start-up (tests/cli/test_startup_imports.py keeps it out)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO, Protocol, TextIO

    class StandardPorts(Protocol):
        """Where a thread's current ports go while it is redirected (see ``redirect``)."""

        def input_port(self) -> object: ...

        def output_port(self) -> object: ...

        def error_port(self) -> object: ...


#: the most characters (or bytes) one string or bytevector output port may collect
MAX_OUTPUT = 64 * 1024 * 1024

_READ_CHUNK = 65536
_LINE_END = re.compile(r"[\r\n]")


# -- the port classes ----------------------------------------------------------------------

class Port:
    """Any port. ``is_open`` turns False on close; ``name`` names the source in read errors."""

    __slots__ = ("is_open", "name")

    def __init__(self, name: str) -> None:
        self.is_open = True
        self.name = name

    def close(self) -> None:
        self.is_open = False


class _BufferedInput(Port):
    """Input from an initial buffer and then from ``fill()`` (empty: nothing more for now);
    the buffer is a str for textual ports and bytes for binary ones."""

    __slots__ = ("_buf", "_fill", "_pos", "_release")

    def __init__(self, buf, fill: Callable | None, name: str,
                 release: Callable[[], None] | None) -> None:
        super().__init__(name)
        self._buf = buf
        self._pos = 0
        self._fill = fill
        self._release = release

    def close(self) -> None:
        if self.is_open and self._release is not None:
            self._release()
        super().close()

    def _more(self) -> bool:
        """Append the next piece of input to the buffer; False at end of input."""
        if self._fill is None:
            return False
        try:
            chunk = self._fill()
        except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
            raise error(f"read: cannot read {self.name}: {exc}", kind="file") from None
        if not chunk:
            return False
        self._buf = self._buf[self._pos:] + chunk
        self._pos = 0
        return True

    def _next(self):
        """The next character or byte, consumed; None at end of input."""
        if self._pos >= len(self._buf) and not self._more():
            return None
        item = self._buf[self._pos]
        self._pos += 1
        return item

    def _peek(self):
        if self._pos >= len(self._buf) and not self._more():
            return None
        return self._buf[self._pos]


class TextInputPort(_BufferedInput):
    """Characters from ``text`` and then from ``fill()`` ('' means nothing more for now).

    ``interactive`` ports (the console) are filled a line at a time and never read ahead
    past what a request needs.
    """

    __slots__ = ("fold_case", "interactive")

    def __init__(self, text: str = "", fill: Callable[[], str] | None = None,
                 name: str = "<string>", interactive: bool = False,
                 release: Callable[[], None] | None = None) -> None:
        super().__init__(text, fill, name, release)
        self.interactive = interactive
        self.fold_case = False  # a #!fold-case read from this port holds for its later reads

    def read_char(self) -> str | None:
        """The next character, consumed; None at end of input."""
        return self._next()

    def peek_char(self) -> str | None:
        return self._peek()

    def read_line(self) -> str | None:
        """The text up to the next "\\n", "\\r\\n" or "\\r" (consumed, not returned)."""
        scan = self._pos
        while True:
            m = _LINE_END.search(self._buf, scan)
            if m is not None:
                break
            scanned = len(self._buf) - self._pos
            if not self._more():
                if self._pos >= len(self._buf):
                    return None
                line = self._buf[self._pos:]
                self._pos = len(self._buf)
                return line
            scan = self._pos + scanned
        end = m.start()
        if self._buf[end] == "\r" and end + 1 == len(self._buf):  # is a "\n" coming next?
            offset = end - self._pos
            if self._more():
                end = self._pos + offset
        line = self._buf[self._pos:end]
        end += 2 if self._buf.startswith("\r\n", end) else 1
        self._pos = end
        return line

    def read_text(self, k: int) -> str | None:
        """Up to ``k`` characters; None if the input is already at its end."""
        while len(self._buf) - self._pos < k and self._more():
            pass
        if self._pos >= len(self._buf):
            return None
        text = self._buf[self._pos:self._pos + k]
        self._pos += len(text)
        return text

    def char_ready(self) -> bool:
        if self._pos < len(self._buf) or not self.interactive:
            return True
        try:  # the console: is a line waiting?
            ready, _, _ = select.select([sys.stdin], [], [], 0)
        except (OSError, ValueError, TypeError):
            return True
        return bool(ready)

    def read_datum(self) -> object:
        """The next datum written in the input (``EOF`` at its end)."""
        from harness.scheme.extent import datum_end
        from harness.scheme.reader import read_from
        if self.interactive:  # read whole lines until one datum is complete
            while True:
                end = datum_end(self._buf, self._pos)
                if (end is not None and end < len(self._buf)) or not self._more():
                    break
        else:
            while self._more():
                pass
        try:
            datum, end, self.fold_case = read_from(self._buf, self._pos, self.name,
                                                   self.fold_case)
        except SchemeError:
            self._pos = datum_end(self._buf, self._pos) or len(self._buf)  # skip the bad datum
            raise
        self._pos = end
        return datum


class BinaryInputPort(_BufferedInput):
    """Bytes from ``data`` and then from ``fill()`` (b'' means end of input)."""

    __slots__ = ()

    def __init__(self, data: bytes = b"", fill: Callable[[], bytes] | None = None,
                 name: str = "<bytevector>", release: Callable[[], None] | None = None) -> None:
        super().__init__(bytes(data), fill, name, release)

    def read_byte(self) -> int | None:
        return self._next()

    def peek_byte(self) -> int | None:
        return self._peek()

    def read_bytes(self, k: int) -> bytes | None:
        """Up to ``k`` bytes; None if the input is already at its end."""
        while len(self._buf) - self._pos < k and self._more():
            pass
        if self._pos >= len(self._buf):
            return None
        data = self._buf[self._pos:self._pos + k]
        self._pos += len(data)
        return data


class TextOutputPort(Port):
    """Where ``write``, ``display`` and ``write-char`` send text."""

    __slots__ = ()

    def write(self, text: str) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        """Push buffered output to its destination (in-memory ports have none)."""


class StringOutputPort(TextOutputPort):
    """Collects text in memory, at most ``limit`` characters."""

    __slots__ = ("_pieces", "_size", "limit")

    def __init__(self, limit: int = MAX_OUTPUT) -> None:
        super().__init__("<string>")
        self._pieces: list[str] = []
        self._size = 0
        self.limit = limit

    def write(self, text: str) -> None:
        if self._size + len(text) > self.limit:
            raise SizeLimitExceeded(f"output exceeds {self.limit} characters")
        self._size += len(text)
        self._pieces.append(text)

    def tell(self) -> int:
        """How many characters were written so far."""
        return self._size

    def clear(self, limit: int) -> None:
        """Forget what was written (for reuse) and set a new size limit."""
        self._pieces.clear()
        self._size = 0
        self.limit = limit

    def getvalue(self) -> str:
        """Everything written so far."""
        if len(self._pieces) > 1:
            self._pieces[:] = ["".join(self._pieces)]
        return self._pieces[0] if self._pieces else ""


class StreamOutputPort(TextOutputPort):
    """Writes through to the Python text stream ``stream_of()`` returns at each write.

    A console port (``owns_stream`` False) stays open: closing it would close it for every
    later caller, and the stream is not its to close.
    """

    __slots__ = ("_stream_of", "owns_stream")

    def __init__(self, stream_of: Callable[[], TextIO], name: str,
                 owns_stream: bool = True) -> None:
        super().__init__(name)
        self._stream_of = stream_of
        self.owns_stream = owns_stream

    def write(self, text: str) -> None:
        try:
            self._stream_of().write(text)
        except (OSError, ValueError) as exc:
            raise error(f"write: cannot write to {self.name}: {exc}", kind="file") from None

    def flush(self) -> None:
        try:
            self._stream_of().flush()
        except (OSError, ValueError) as exc:
            raise error(f"flush-output-port: cannot flush {self.name}: {exc}",
                        kind="file") from None

    def close(self) -> None:
        if not self.owns_stream:
            return
        if self.is_open:
            try:
                self._stream_of().close()
            except OSError as exc:
                raise error(f"close-port: cannot close {self.name}: {exc}",
                            kind="file") from None
        super().close()


class BinaryOutputPort(Port):
    """Where ``write-u8`` and ``write-bytevector`` send bytes."""

    __slots__ = ()

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def flush(self) -> None:
        """Push buffered output to its destination (in-memory ports have none)."""


class BytevectorOutputPort(BinaryOutputPort):
    """Collects bytes in memory, at most ``limit`` of them."""

    __slots__ = ("_data", "limit")

    def __init__(self, limit: int = MAX_OUTPUT) -> None:
        super().__init__("<bytevector>")
        self._data = bytearray()
        self.limit = limit

    def write(self, data: bytes) -> None:
        if len(self._data) + len(data) > self.limit:
            raise SizeLimitExceeded(f"output exceeds {self.limit} bytes")
        self._data += data

    def getvalue(self) -> bytes:
        return bytes(self._data)


class BinaryFileOutputPort(BinaryOutputPort):
    """Writes bytes to an open binary file, which it owns."""

    __slots__ = ("_file",)

    def __init__(self, file: BinaryIO, name: str) -> None:
        super().__init__(name)
        self._file = file

    def write(self, data: bytes) -> None:
        try:
            self._file.write(data)
        except (OSError, ValueError) as exc:
            raise error(f"write: cannot write to {self.name}: {exc}", kind="file") from None

    def flush(self) -> None:
        try:
            self._file.flush()
        except (OSError, ValueError) as exc:
            raise error(f"flush-output-port: cannot flush {self.name}: {exc}",
                        kind="file") from None

    def close(self) -> None:
        if self.is_open:
            try:
                self._file.close()
            except OSError as exc:
                raise error(f"close-port: cannot close {self.name}: {exc}",
                            kind="file") from None
        super().close()


def _stdin_line() -> str:
    return sys.stdin.readline()


CONSOLE_INPUT = TextInputPort(fill=_stdin_line, name="<stdin>", interactive=True)
CONSOLE_OUTPUT = StreamOutputPort(lambda: sys.stdout, "<stdout>", owns_stream=False)
CONSOLE_ERROR = StreamOutputPort(lambda: sys.stderr, "<stderr>", owns_stream=False)


# -- argument checks -----------------------------------------------------------------------

def _port_checker(who: str, kind: type | tuple, expected: str) -> Callable[[object], object]:
    """A parameter converter that refuses anything but a port of ``kind``."""
    def check(port: object) -> object:
        if not isinstance(port, kind):
            raise wrong_type(who, expected, port)
        return port
    return check


_redirect = threading.local()


def redirect(target: StandardPorts | None) -> tuple:
    """Make ``target`` give this thread's current ports (None: the console) until
    ``restore``: ``parameterize`` bindings made before are hidden meanwhile, those made
    after win. Returns what ``restore`` needs."""
    bindings = thread_bindings()
    hidden = None
    if bindings:  # rare: a capture inside a parameterize
        for param in _PORT_PARAMS:
            if param in bindings:
                if hidden is None:
                    hidden = {}
                hidden[param] = bindings.pop(param)
    previous = getattr(_redirect, "target", None)
    _redirect.target = target
    return previous, hidden


def restore(token: tuple) -> None:
    """Undo the ``redirect`` that returned ``token``."""
    previous, hidden = token
    _redirect.target = previous
    if hidden:
        thread_bindings().update(hidden)


def _redirected(method: str) -> Callable[[], object]:
    def thread_value() -> object:
        target = getattr(_redirect, "target", None)
        return None if target is None else getattr(target, method)()
    return thread_value


# Binary ports are allowed too: read-u8, write-bytevector... default to these (R7RS 6.13).
current_input_port = make_parameter(
    CONSOLE_INPUT,
    _port_checker("current-input-port", (TextInputPort, BinaryInputPort), "an input port"),
    _redirected("input_port"))
current_output_port = make_parameter(
    CONSOLE_OUTPUT,
    _port_checker("current-output-port", (TextOutputPort, BinaryOutputPort), "an output port"),
    _redirected("output_port"))
current_error_port = make_parameter(
    CONSOLE_ERROR,
    _port_checker("current-error-port", (TextOutputPort, BinaryOutputPort), "an output port"),
    _redirected("error_port"))
_PORT_PARAMS = (current_input_port.param, current_output_port.param, current_error_port.param)
define("scheme base", "current-input-port", current_input_port)
define("scheme base", "current-output-port", current_output_port)
define("scheme base", "current-error-port", current_error_port)


def _open(who: str, port: Port) -> None:
    if not port.is_open:
        raise error(f"{who}: port is closed", port)


def _port_arg(who: str, port: object, default, kind: type, expected: str):
    """The port argument ``port`` (``default()`` when omitted), checked to be an open
    ``kind`` port."""
    if port is DEFAULT:
        port = default()
    if not isinstance(port, kind):
        raise wrong_type(who, expected, port)
    _open(who, port)
    return port


def _text_in(who: str, port: object) -> TextInputPort:
    return _port_arg(who, port, current_input_port, TextInputPort, "a textual input port")


def _text_out(who: str, port: object) -> TextOutputPort:
    return _port_arg(who, port, current_output_port, TextOutputPort, "a textual output port")


def _binary_in(who: str, port: object) -> BinaryInputPort:
    return _port_arg(who, port, current_input_port, BinaryInputPort, "a binary input port")


def _binary_out(who: str, port: object) -> BinaryOutputPort:
    return _port_arg(who, port, current_output_port, BinaryOutputPort, "a binary output port")


def _count(who: str, k: object) -> int:
    k = as_int(k)
    if type(k) is not int or k < 0:
        raise wrong_type(who, "a non-negative exact integer", k)
    return k


def _range(who: str, size: int, start: object, end: object) -> tuple[int, int]:
    """Checked (start, end) of a slice of something ``size`` long; DEFAULTs mean the ends."""
    lo = 0 if start is DEFAULT else as_int(start)
    hi = size if end is DEFAULT else as_int(end)
    if type(lo) is not int:
        raise wrong_type(who, "an exact integer start index", lo)
    if type(hi) is not int:
        raise wrong_type(who, "an exact integer end index", hi)
    if not 0 <= lo <= hi <= size:
        raise error(f"{who}: range {lo}..{hi} out of bounds for length {size}", lo, hi)
    return lo, hi


def _string(who: str, s: object) -> String:
    if s.__class__ is not String:
        raise wrong_type(who, "a string", s)
    return s


def _bytevector(who: str, bv: object) -> Bytevector:
    if bv.__class__ is not Bytevector:
        raise wrong_type(who, "a bytevector", bv)
    return bv


def _any_port(who: str, port: object) -> Port:
    if not isinstance(port, Port):
        raise wrong_type(who, "a port", port)
    return port


def _procedure(who: str, proc: object) -> Callable:
    if not callable(proc):
        raise wrong_type(who, "a procedure", proc)
    return proc


# -- (scheme base): predicates, opening and closing ----------------------------------------

@primitive("scheme base")
def port_p(x: object) -> bool:
    return isinstance(x, Port)


@primitive("scheme base")
def input_port_p(x: object) -> bool:
    return isinstance(x, (TextInputPort, BinaryInputPort))


@primitive("scheme base")
def output_port_p(x: object) -> bool:
    return isinstance(x, (TextOutputPort, BinaryOutputPort))


@primitive("scheme base")
def textual_port_p(x: object) -> bool:
    return isinstance(x, (TextInputPort, TextOutputPort))


@primitive("scheme base")
def binary_port_p(x: object) -> bool:
    return isinstance(x, (BinaryInputPort, BinaryOutputPort))


@primitive("scheme base")
def input_port_open_p(port: object) -> bool:
    if not input_port_p(port):
        raise wrong_type("input-port-open?", "an input port", port)
    return port.is_open


@primitive("scheme base")
def output_port_open_p(port: object) -> bool:
    if not output_port_p(port):
        raise wrong_type("output-port-open?", "an output port", port)
    return port.is_open


@primitive("scheme base")
def close_port(port: object) -> None:
    _any_port("close-port", port).close()


@primitive("scheme base")
def close_input_port(port: object) -> None:
    if not input_port_p(port):
        raise wrong_type("close-input-port", "an input port", port)
    port.close()


@primitive("scheme base")
def close_output_port(port: object) -> None:
    if not output_port_p(port):
        raise wrong_type("close-output-port", "an output port", port)
    port.close()


@primitive("scheme base")
def open_input_string(s: object) -> TextInputPort:
    return TextInputPort(_string("open-input-string", s).s)


@primitive("scheme base")
def open_output_string() -> StringOutputPort:
    return StringOutputPort()


@primitive("scheme base")
def get_output_string(port: object) -> String:
    if not isinstance(port, StringOutputPort):
        raise wrong_type("get-output-string", "a string output port", port)
    return String(port.getvalue())


@primitive("scheme base")
def open_input_bytevector(bv: object) -> BinaryInputPort:
    return BinaryInputPort(_bytevector("open-input-bytevector", bv).b)


@primitive("scheme base")
def open_output_bytevector() -> BytevectorOutputPort:
    return BytevectorOutputPort()


@primitive("scheme base")
def get_output_bytevector(port: object) -> Bytevector:
    if not isinstance(port, BytevectorOutputPort):
        raise wrong_type("get-output-bytevector", "a bytevector output port", port)
    return Bytevector(bytearray(port.getvalue()))


@primitive("scheme base")
def call_with_port(port: object, proc: object) -> object:
    """Call ``proc`` on ``port``; close the port when (and only when) proc returns."""
    _any_port("call-with-port", port)
    result = _procedure("call-with-port", proc)(port)
    port.close()
    return result


@primitive("scheme base")
def eof_object() -> object:
    return EOF


@primitive("scheme base")
def eof_object_p(x: object) -> bool:
    return x is EOF


# -- (scheme base): input ------------------------------------------------------------------

def _char_or_eof(c: str | None) -> object:
    return EOF if c is None else Char.of(c)


@primitive("scheme base")
def read_char(port: object = DEFAULT) -> object:
    return _char_or_eof(_text_in("read-char", port).read_char())


@primitive("scheme base")
def peek_char(port: object = DEFAULT) -> object:
    return _char_or_eof(_text_in("peek-char", port).peek_char())


@primitive("scheme base")
def read_line(port: object = DEFAULT) -> object:
    line = _text_in("read-line", port).read_line()
    return EOF if line is None else String(line)


@primitive("scheme base")
def read_string(k: object, port: object = DEFAULT) -> object:
    k = _count("read-string", k)
    p = _text_in("read-string", port)
    if k == 0:
        return String("")
    text = p.read_text(k)
    return EOF if text is None else String(text)


@primitive("scheme base")
def char_ready_p(port: object = DEFAULT) -> bool:
    return _text_in("char-ready?", port).char_ready()


@primitive("scheme base")
def read_u8(port: object = DEFAULT) -> object:
    b = _binary_in("read-u8", port).read_byte()
    return EOF if b is None else b


@primitive("scheme base")
def peek_u8(port: object = DEFAULT) -> object:
    b = _binary_in("peek-u8", port).peek_byte()
    return EOF if b is None else b


@primitive("scheme base")
def u8_ready_p(port: object = DEFAULT) -> bool:
    _binary_in("u8-ready?", port)
    return True  # binary ports read from memory or regular files: never block


@primitive("scheme base")
def read_bytevector(k: object, port: object = DEFAULT) -> object:
    k = _count("read-bytevector", k)
    p = _binary_in("read-bytevector", port)
    if k == 0:
        return Bytevector(bytearray())
    data = p.read_bytes(k)
    return EOF if data is None else Bytevector(bytearray(data))


@primitive("scheme base", name="read-bytevector!")
def read_bytevector_x(bv: object, port: object = DEFAULT, start: object = DEFAULT,
                      end: object = DEFAULT) -> object:
    """Fill ``bv[start:end]`` from the port; the number of bytes read, or EOF."""
    b = _bytevector("read-bytevector!", bv).b
    p = _binary_in("read-bytevector!", port)
    lo, hi = _range("read-bytevector!", len(b), start, end)
    if lo == hi:
        return 0
    data = p.read_bytes(hi - lo)
    if data is None:
        return EOF
    b[lo:lo + len(data)] = data
    return len(data)


# -- (scheme base): output -----------------------------------------------------------------

@primitive("scheme base")
def write_char(c: object, port: object = DEFAULT) -> None:
    if c.__class__ is not Char:
        raise wrong_type("write-char", "a character", c)
    _text_out("write-char", port).write(c.c)


@primitive("scheme base", name="write-string")
def write_string_(s: object, port: object = DEFAULT, start: object = DEFAULT,
                  end: object = DEFAULT) -> None:
    text = _string("write-string", s).s
    p = _text_out("write-string", port)
    lo, hi = _range("write-string", len(text), start, end)
    p.write(text[lo:hi])


@primitive("scheme base")
def newline(port: object = DEFAULT) -> None:
    _text_out("newline", port).write("\n")


@primitive("scheme base")
def write_u8(byte: object, port: object = DEFAULT) -> None:
    byte = as_int(byte)
    if type(byte) is not int or not 0 <= byte <= 255:
        raise wrong_type("write-u8", "a byte (an exact integer 0..255)", byte)
    _binary_out("write-u8", port).write(bytes((byte,)))


@primitive("scheme base")
def write_bytevector(bv: object, port: object = DEFAULT, start: object = DEFAULT,
                     end: object = DEFAULT) -> None:
    b = _bytevector("write-bytevector", bv).b
    p = _binary_out("write-bytevector", port)
    lo, hi = _range("write-bytevector", len(b), start, end)
    p.write(bytes(b[lo:hi]))


@primitive("scheme base")
def flush_output_port(port: object = DEFAULT) -> None:
    if port is DEFAULT:
        port = current_output_port()
    if not output_port_p(port):
        raise wrong_type("flush-output-port", "an output port", port)
    _open("flush-output-port", port)
    port.flush()


# -- (scheme write) and (scheme read) ------------------------------------------------------

def _rendered(port: TextOutputPort, render, obj: object) -> str:
    """``render(obj, limit)`` with the room left in ``port``: printing stops as soon as the
    text could not fit, instead of rendering a huge structure first."""
    if not isinstance(port, StringOutputPort) or port.limit - port.tell() >= MAX_WRITTEN_CHARS:
        return render(obj, MAX_WRITTEN_CHARS)
    try:
        return render(obj, max(port.limit - port.tell(), 0))
    except SizeLimitExceeded:
        raise SizeLimitExceeded(f"output exceeds {port.limit} characters") from None


@primitive("scheme write", name="write")
def write(obj: object, port: object = DEFAULT) -> None:
    p = _text_out("write", port)
    p.write(_rendered(p, write_string, obj))


@primitive("scheme write")
def write_shared(obj: object, port: object = DEFAULT) -> None:
    p = _text_out("write-shared", port)
    p.write(_rendered(p, write_shared_string, obj))


@primitive("scheme write")
def write_simple(obj: object, port: object = DEFAULT) -> None:
    p = _text_out("write-simple", port)
    p.write(_rendered(p, write_simple_string, obj))


@primitive("scheme write")
def display(obj: object, port: object = DEFAULT) -> None:
    p = _text_out("display", port)
    p.write(_rendered(p, display_string, obj))


@primitive("scheme read", name="read")
def read(port: object = DEFAULT) -> object:
    return _text_in("read", port).read_datum()


# -- (harness ports): capturing output -----------------------------------------------------

@primitive("harness ports", name="with-output-to-string")
def with_output_to_string(thunk: object) -> String:
    """Call ``thunk`` with the current output port collecting into a string; return it."""
    _procedure("with-output-to-string", thunk)
    port = StringOutputPort()
    push_binding(current_output_port, port)
    try:
        thunk()
    finally:
        pop_binding(current_output_port)
    return String(port.getvalue())


@primitive("harness ports")
def call_with_output_string(proc: object) -> String:
    """Call ``proc`` with a fresh string output port; return what it wrote there."""
    _procedure("call-with-output-string", proc)
    port = StringOutputPort()
    proc(port)
    return String(port.getvalue())


# -- (scheme file): unsandboxed only -------------------------------------------------------

def _path(who: str, path: object) -> str:
    return _string(who, path).s


def _file_error(who: str, path: object, exc: OSError) -> SchemeError:
    reason = exc.strerror or str(exc)
    return error(f"{who}: {reason}: {write_truncated(path)}", path, kind="file")


def _open_text_input(who: str, path: object) -> TextInputPort:
    name = _path(who, path)
    try:  # newline="" keeps "\r\n" and "\r" as they are; read-line knows all three
        f = open(name, encoding="utf-8", newline="")  # noqa: SIM115 — the port owns it
    except OSError as exc:
        raise _file_error(who, path, exc) from None
    return TextInputPort(fill=lambda: f.read(_READ_CHUNK), name=name, release=f.close)


#: the files output file ports opened and may not have closed. A program that never
#: closes its port leaves what it wrote in the file object's buffer; if the port is held
#: in a reference cycle (any procedure the program defined holds its globals), the object
#: is not finalized at exit and the buffer was lost. ``flush_open_files`` writes them out:
#: at the end of ``harness run``/``eval``, and at the exit of any process that opened one
#: (a host, ``harness fire``, ``serve``: ``report_unflushed_files``).
_written_files: weakref.WeakSet = weakref.WeakSet()


def flush_open_files() -> list[str]:
    """Flush every file an output file port opened and has not closed; return a message
    for each that could not be."""
    failures = []
    for f in list(_written_files):
        if not f.closed:
            try:
                f.flush()
            except (OSError, ValueError) as exc:
                failures.append(f"cannot write {f.name}: {exc}")
    return failures


def report_unflushed_files() -> None:
    """``flush_open_files``, each failure reported on stderr."""
    for message in flush_open_files():
        print(f"harness: {message}", file=sys.stderr)


atexit.register(report_unflushed_files)


def _open_text_output(who: str, path: object) -> StreamOutputPort:
    name = _path(who, path)
    try:
        f = open(name, "w", encoding="utf-8", newline="")  # noqa: SIM115 — the port owns it
    except OSError as exc:
        raise _file_error(who, path, exc) from None
    _written_files.add(f)
    return StreamOutputPort(lambda: f, name)


@primitive("scheme file")
def open_input_file(path: object) -> TextInputPort:
    return _open_text_input("open-input-file", path)


@primitive("scheme file")
def open_output_file(path: object) -> StreamOutputPort:
    return _open_text_output("open-output-file", path)


@primitive("scheme file")
def open_binary_input_file(path: object) -> BinaryInputPort:
    name = _path("open-binary-input-file", path)
    try:
        f = open(name, "rb")  # noqa: SIM115 — the port owns it
    except OSError as exc:
        raise _file_error("open-binary-input-file", path, exc) from None
    return BinaryInputPort(fill=lambda: f.read(_READ_CHUNK), name=name, release=f.close)


@primitive("scheme file")
def open_binary_output_file(path: object) -> BinaryFileOutputPort:
    name = _path("open-binary-output-file", path)
    try:
        f = open(name, "wb")  # noqa: SIM115 — the port owns it
    except OSError as exc:
        raise _file_error("open-binary-output-file", path, exc) from None
    _written_files.add(f)
    return BinaryFileOutputPort(f, name)


@primitive("scheme file")
def call_with_input_file(path: object, proc: object) -> object:
    _procedure("call-with-input-file", proc)
    port = _open_text_input("call-with-input-file", path)
    result = proc(port)
    port.close()
    return result


@primitive("scheme file")
def call_with_output_file(path: object, proc: object) -> object:
    _procedure("call-with-output-file", proc)
    port = _open_text_output("call-with-output-file", path)
    result = proc(port)
    port.close()
    return result


@primitive("scheme file")
def with_input_from_file(path: object, thunk: object) -> object:
    _procedure("with-input-from-file", thunk)
    port = _open_text_input("with-input-from-file", path)
    push_binding(current_input_port, port)
    try:
        return thunk()
    finally:
        pop_binding(current_input_port)
        port.close()


@primitive("scheme file", name="with-output-to-file")
def with_output_to_file(path: object, thunk: object) -> object:
    _procedure("with-output-to-file", thunk)
    port = _open_text_output("with-output-to-file", path)
    push_binding(current_output_port, port)
    try:
        return thunk()
    finally:
        pop_binding(current_output_port)
        port.close()


@primitive("scheme file")
def file_exists_p(path: object) -> bool:
    return os.path.exists(_path("file-exists?", path))


@primitive("scheme file")
def delete_file(path: object) -> None:
    try:
        os.remove(_path("delete-file", path))
    except OSError as exc:
        raise _file_error("delete-file", path, exc) from None

