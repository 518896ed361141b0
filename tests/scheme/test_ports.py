"""Ports: string, bytevector, console and file ports; write/display/read through them."""

import sys

import pytest

from harness.scheme.datatypes import (
    DEFAULT,
    EOF,
    NIL,
    Bytevector,
    Char,
    String,
    Vector,
    py_to_list,
    sym,
)
from harness.scheme.errors import SchemeError, SizeLimitExceeded
from harness.scheme.parameters import pop_binding, push_binding
from harness.scheme.primitives import LIBRARIES
from harness.scheme.primitives import ports as P
from harness.scheme.printer import write_string


def text_port(text):
    return P.open_input_string(String(text))


def chunked_port(*chunks):
    """A text input port fed piece by piece, as a file or a pipe would be."""
    pending = list(chunks)
    return P.TextInputPort(fill=lambda: pending.pop(0) if pending else "")


def bv(*data):
    return Bytevector(bytearray(data))


def error_message(excinfo):
    return str(excinfo.value)


# -- predicates ----------------------------------------------------------------------------

def test_predicates():
    tin, tout = text_port(""), P.open_output_string()
    bin_, bout = P.open_input_bytevector(bv()), P.open_output_bytevector()
    assert [P.port_p(p) for p in (tin, tout, bin_, bout)] == [True] * 4
    assert [P.input_port_p(p) for p in (tin, tout, bin_, bout)] == [True, False, True, False]
    assert [P.output_port_p(p) for p in (tin, tout, bin_, bout)] == [False, True, False, True]
    assert [P.textual_port_p(p) for p in (tin, tout, bin_, bout)] == [True, True, False, False]
    assert [P.binary_port_p(p) for p in (tin, tout, bin_, bout)] == [False, False, True, True]
    for non_port in (String("x"), 1, NIL, EOF):
        assert not P.port_p(non_port)
        assert not P.input_port_p(non_port)
        assert not P.output_port_p(non_port)
    assert write_string(tin) == "#<port>"


def test_open_and_close():
    p = text_port("abc")
    assert P.input_port_open_p(p)
    P.close_input_port(p)
    assert not P.input_port_open_p(p)
    P.close_port(p)  # closing twice is fine
    out = P.open_output_string()
    assert P.output_port_open_p(out)
    P.close_output_port(out)
    assert not P.output_port_open_p(out)


def test_closed_ports_refuse_io():
    p = text_port("abc")
    P.close_port(p)
    with pytest.raises(SchemeError, match="read-char: port is closed"):
        P.read_char(p)
    out = P.open_output_string()
    P.close_port(out)
    with pytest.raises(SchemeError, match="write-char: port is closed"):
        P.write_char(Char.of("a"), out)


def test_close_wrong_direction_is_an_error():
    with pytest.raises(SchemeError, match="close-input-port: expected an input port"):
        P.close_input_port(P.open_output_string())
    with pytest.raises(SchemeError, match="close-output-port: expected an output port"):
        P.close_output_port(text_port(""))
    with pytest.raises(SchemeError, match="close-port: expected a port, got 1"):
        P.close_port(1)


def test_eof_object():
    assert P.eof_object() is EOF
    assert P.eof_object_p(EOF)
    assert not P.eof_object_p(NIL)


# -- textual input -------------------------------------------------------------------------

def test_read_char_and_peek_char():
    p = text_port("aλ")
    assert P.peek_char(p) is Char.of("a")
    assert P.read_char(p) is Char.of("a")
    assert P.read_char(p) is Char.of("λ")
    assert P.peek_char(p) is EOF
    assert P.read_char(p) is EOF


def test_read_line_on_mixed_newlines():
    p = text_port("unix\nwindows\r\nmac\r\nblank-next\n\nlast")
    lines = []
    while (line := P.read_line(p)) is not EOF:
        lines.append(line.s)
    assert lines == ["unix", "windows", "mac", "blank-next", "", "last"]
    assert P.read_line(text_port("a\rb")).s == "a"


def test_read_line_at_end():
    assert P.read_line(text_port("")) is EOF
    p = text_port("x\n")
    assert P.read_line(p).s == "x"
    assert P.read_line(p) is EOF


def test_read_line_across_chunks():
    p = chunked_port("ab", "c\r", "\nde", "f\r", "g", "\n", "h")
    lines = []
    while (line := P.read_line(p)) is not EOF:
        lines.append(line.s)
    assert lines == ["abc", "def", "g", "h"]


def test_read_char_across_chunks():
    p = chunked_port("a", "", "b")  # '' ends the input
    assert P.read_char(p) is Char.of("a")
    assert P.read_char(p) is EOF


def test_read_string():
    p = text_port("hello world")
    assert P.read_string(5, p).s == "hello"
    assert P.read_string(0, p).s == ""
    assert P.read_string(100, p).s == " world"
    assert P.read_string(3, p) is EOF
    assert P.read_string(4, chunked_port("ab", "cd", "ef")).s == "abcd"


def test_char_ready():
    assert P.char_ready_p(text_port("")) is True
    assert P.char_ready_p(text_port("a")) is True


def test_read_datums():
    p = text_port("(1 2 . 3) foo \"x\" #(1 #\\a) #0=(a . #0#) ; comment\n")
    got = [P.read(p) for _ in range(6)]
    assert write_string(got[0]) == "(1 2 . 3)"
    assert got[1] is sym("foo")
    assert got[2] == String("x")
    assert got[3] == Vector([1, Char.of("a")])
    assert got[4][1] is got[4]
    assert got[5] is EOF


def test_read_mixes_with_read_char():
    p = text_port("abc def")
    assert P.read(p) is sym("abc")
    assert P.read_char(p) is Char.of(" ")
    assert P.read(p) is sym("def")


def test_read_error_skips_the_bad_datum():
    p = text_port("(1 . . 2) ok")
    with pytest.raises(SchemeError):
        P.read(p)
    assert P.read(p) is sym("ok")


def test_read_from_a_line_fed_interactive_port():
    pending = ["(a\n", "b)\n", "c\n"]
    p = P.TextInputPort(fill=lambda: pending.pop(0) if pending else "", interactive=True)
    assert write_string(P.read(p)) == "(a b)"
    assert pending == ["c\n"]  # read no further than the datum needed
    assert P.read(p) is sym("c")
    assert P.read(p) is EOF


# -- textual output ------------------------------------------------------------------------

def test_string_output_round_trip():
    out = P.open_output_string()
    P.write_char(Char.of("λ"), out)
    P.write_string_(String("hello"), out)
    P.write_string_(String("0123456789"), out, 2)
    P.write_string_(String("0123456789"), out, 2, 4)
    P.newline(out)
    assert P.get_output_string(out).s == "λhello2345678923\n"
    assert P.get_output_string(out).s == "λhello2345678923\n"  # reading it does not reset it
    back = P.open_input_string(P.get_output_string(out))
    assert P.read_line(back).s == "λhello2345678923"


def test_write_display_and_friends():
    out = P.open_output_string()
    data = py_to_list([String("a"), Char.of("b"), sym("c d")])
    P.write(data, out)
    P.display(data, out)
    shared = py_to_list([1])
    P.write_shared(py_to_list([shared, shared]), out)
    P.write_simple(py_to_list([shared, shared]), out)
    assert P.get_output_string(out).s == '("a" #\\b |c d|)(a b c d)(#0=(1) #0#)((1) (1))'


def test_write_to_default_port_follows_the_parameter():
    out = P.open_output_string()
    push_binding(P.current_output_port, out)
    try:
        P.display(String("x"))
        P.write(String("y"))
        P.newline()
        P.write_char(Char.of("z"))
        P.write_string_(String("!"))
    finally:
        pop_binding(P.current_output_port)
    assert P.get_output_string(out).s == 'x"y"\nz!'


def test_console_port_writes_to_the_current_sys_stdout(capsys):
    P.display(String("to stdout"))
    P.write(String("to stderr"), P.current_error_port())
    P.flush_output_port()
    captured = capsys.readouterr()
    assert captured.out == "to stdout"
    assert captured.err == '"to stderr"'


def test_console_ports_stay_open_when_closed():
    P.close_port(P.CONSOLE_OUTPUT)
    assert P.output_port_open_p(P.CONSOLE_OUTPUT)


def test_default_input_port_follows_the_parameter():
    push_binding(P.current_input_port, text_port("line one\nx"))
    try:
        assert P.read_line().s == "line one"
        assert P.peek_char() is Char.of("x")
        assert P.read_char() is Char.of("x")
        assert P.read() is EOF
    finally:
        pop_binding(P.current_input_port)


def test_current_ports_refuse_non_ports():
    with pytest.raises(SchemeError, match="current-output-port: expected an output port"):
        push_binding(P.current_output_port, 5)
    with pytest.raises(SchemeError, match="current-input-port: expected an input port"):
        push_binding(P.current_input_port, P.open_output_string())


def test_current_input_port_may_be_binary():
    push_binding(P.current_input_port, P.open_input_bytevector(Bytevector(bytearray(b"\x07"))))
    try:
        assert P.read_u8() == 7
    finally:
        pop_binding(P.current_input_port)


def test_with_output_to_string_and_call_with_output_string():
    def thunk():
        P.display(String("inside"))
        P.write(1)

    assert P.with_output_to_string(thunk).s == "inside1"
    assert P.current_output_port() is P.CONSOLE_OUTPUT  # restored
    assert P.call_with_output_string(lambda port: P.write(sym("s"), port)).s == "s"


def test_with_output_to_string_restores_the_port_on_error():
    def thunk():
        raise SchemeError(sym("boom"))

    with pytest.raises(SchemeError):
        P.with_output_to_string(thunk)
    assert P.current_output_port() is P.CONSOLE_OUTPUT


def test_call_with_port_closes_after_return_only():
    p = text_port("abc")
    assert P.call_with_port(p, lambda port: P.read_char(port)) is Char.of("a")
    assert not P.input_port_open_p(p)
    q = text_port("abc")

    def fail(port):
        raise SchemeError(sym("no"))

    with pytest.raises(SchemeError):
        P.call_with_port(q, fail)
    assert P.input_port_open_p(q)


def test_output_is_capped():
    out = P.StringOutputPort(limit=10)
    P.write_string_(String("0123456789"), out)
    with pytest.raises(SizeLimitExceeded):
        P.write_char(Char.of("x"), out)
    assert P.get_output_string(out).s == "0123456789"
    bout = P.BytevectorOutputPort(limit=2)
    P.write_bytevector(bv(1, 2), bout)
    with pytest.raises(SizeLimitExceeded):
        P.write_u8(3, bout)
    assert P.MAX_OUTPUT == 64 * 1024 * 1024


def test_runaway_writer_stops_at_the_cap():
    out = P.StringOutputPort(limit=100_000)
    with pytest.raises(SizeLimitExceeded):
        while True:
            P.write_string_(String("spam "), out)


# -- binary ports --------------------------------------------------------------------------

def test_bytevector_input():
    p = P.open_input_bytevector(bv(1, 2, 3, 4, 5))
    assert P.u8_ready_p(p)
    assert P.peek_u8(p) == 1
    assert P.read_u8(p) == 1
    assert P.read_bytevector(2, p) == bv(2, 3)
    target = bv(0, 0, 0, 0)
    assert P.read_bytevector_x(target, p, 1) == 2
    assert target == bv(0, 4, 5, 0)
    assert P.read_bytevector_x(target, p) is EOF
    assert P.read_u8(p) is EOF
    assert P.peek_u8(p) is EOF
    assert P.read_bytevector(3, p) is EOF
    assert P.read_bytevector(0, p) == bv()


def test_read_bytevector_x_with_range():
    p = P.open_input_bytevector(bv(9, 8, 7))
    target = bv(0, 0, 0, 0)
    assert P.read_bytevector_x(target, p, 1, 3) == 2
    assert target == bv(0, 9, 8, 0)
    assert P.read_bytevector_x(target, p, 2, 2) == 0


def test_bytevector_output():
    out = P.open_output_bytevector()
    P.write_u8(255, out)
    P.write_bytevector(bv(1, 2, 3, 4), out, 1, 3)
    P.write_bytevector(bv(7), out)
    P.flush_output_port(out)
    result = P.get_output_bytevector(out)
    assert result == bv(255, 2, 3, 7)
    result.b[0] = 0  # a copy: the port keeps its bytes
    assert P.get_output_bytevector(out) == bv(255, 2, 3, 7)


# -- wrong types and ranges ----------------------------------------------------------------

@pytest.mark.parametrize("call, message", [
    (lambda: P.read_char(P.open_output_string()), "read-char: expected a textual input port"),
    (lambda: P.peek_char(1), "peek-char: expected a textual input port, got 1"),
    (lambda: P.read_line(P.open_input_bytevector(bv())), "read-line: expected a textual"),
    (lambda: P.read_string(-1, text_port("")), "read-string: expected a non-negative exact"),
    (lambda: P.read_string(1.0, text_port("")), "read-string: expected a non-negative exact"),
    (lambda: P.read_string(1, 2), "read-string: expected a textual input port"),
    (lambda: P.char_ready_p(NIL), "char-ready?: expected a textual input port"),
    (lambda: P.read(String("x")), "read: expected a textual input port"),
    (lambda: P.read_u8(text_port("")), "read-u8: expected a binary input port"),
    (lambda: P.peek_u8(), "peek-u8: expected a binary input port"),
    (lambda: P.u8_ready_p(1), "u8-ready?: expected a binary input port"),
    (lambda: P.read_bytevector(True, P.open_input_bytevector(bv())), "read-bytevector: exp"),
    (lambda: P.read_bytevector_x(String("x")), "read-bytevector!: expected a bytevector"),
    (lambda: P.read_bytevector_x(bv(1), P.open_input_bytevector(bv()), 2),
     "read-bytevector!: range 2..1 out of bounds"),
    (lambda: P.read_bytevector_x(bv(1), P.open_input_bytevector(bv()), -1),
     "read-bytevector!: range -1..1 out of bounds"),
    (lambda: P.write_char(String("a")), 'write-char: expected a character, got "a"'),
    (lambda: P.write_char(Char.of("a"), text_port("")), "write-char: expected a textual out"),
    (lambda: P.write_string_(sym("a")), "write-string: expected a string, got a"),
    (lambda: P.write_string_(String("ab"), P.open_output_string(), 1, 5),
     "write-string: range 1..5 out of bounds"),
    (lambda: P.write_string_(String("ab"), P.open_output_string(), 2, 1),
     "write-string: range 2..1 out of bounds"),
    (lambda: P.write_string_(String("ab"), P.open_output_string(), 0.5),
     "write-string: expected an exact integer start index"),
    (lambda: P.write_string_(String("ab"), P.open_output_string(), 0, sym("e")),
     "write-string: expected an exact integer end index"),
    (lambda: P.newline(P.open_output_bytevector()), "newline: expected a textual output port"),
    (lambda: P.write_u8(256, P.open_output_bytevector()), "write-u8: expected a byte"),
    (lambda: P.write_u8(True, P.open_output_bytevector()), "write-u8: expected a byte"),
    (lambda: P.write_u8(1), "write-u8: expected a binary output port"),
    (lambda: P.write_bytevector(String("a"), P.open_output_bytevector()),
     "write-bytevector: expected a bytevector"),
    (lambda: P.write_bytevector(bv(1), P.open_output_string()),
     "write-bytevector: expected a binary output port"),
    (lambda: P.flush_output_port(text_port("")), "flush-output-port: expected an output port"),
    (lambda: P.write(1, text_port("")), "write: expected a textual output port"),
    (lambda: P.write_shared(1, 2), "write-shared: expected a textual output port"),
    (lambda: P.write_simple(1, 2), "write-simple: expected a textual output port"),
    (lambda: P.display(1, 2), "display: expected a textual output port"),
    (lambda: P.open_input_string(sym("a")), "open-input-string: expected a string"),
    (lambda: P.open_input_bytevector(String("a")), "open-input-bytevector: expected a bytev"),
    (lambda: P.get_output_string(text_port("")), "get-output-string: expected a string output"),
    (lambda: P.get_output_string(P.open_output_bytevector()), "get-output-string: expected"),
    (lambda: P.get_output_bytevector(P.open_output_string()), "get-output-bytevector: exp"),
    (lambda: P.input_port_open_p(1), "input-port-open?: expected an input port"),
    (lambda: P.output_port_open_p(text_port("")), "output-port-open?: expected an output"),
    (lambda: P.call_with_port(1, len), "call-with-port: expected a port"),
    (lambda: P.call_with_port(text_port(""), 1), "call-with-port: expected a procedure"),
    (lambda: P.with_output_to_string(1), "with-output-to-string: expected a procedure"),
    (lambda: P.call_with_output_string(NIL), "call-with-output-string: expected a procedure"),
])
def test_argument_errors(call, message):
    with pytest.raises(SchemeError) as excinfo:
        call()
    assert error_message(excinfo).startswith(message)


def test_optional_arguments_default_to_the_marker():
    assert P.read_char.__defaults__ == (DEFAULT,)


# -- file ports ----------------------------------------------------------------------------

def test_text_file_round_trip(tmp_path):
    path = String(str(tmp_path / "out.txt"))
    out = P.open_output_file(path)
    P.write(py_to_list([1, String("two")]), out)
    P.display(String("\nsecond line\r\nthird\rfourth λ"), out)
    P.flush_output_port(out)
    P.close_port(out)
    assert not P.output_port_open_p(out)
    assert P.file_exists_p(path)
    p = P.open_input_file(path)
    assert write_string(P.read(p)) == '(1 "two")'
    assert P.read_line(p).s == ""
    assert [P.read_line(p).s for _ in range(3)] == ["second line", "third", "fourth λ"]
    assert P.read_line(p) is EOF
    P.close_input_port(p)
    with pytest.raises(SchemeError, match="port is closed"):
        P.read_char(p)


def test_large_text_file_reads_in_chunks(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("".join(f"line {i}\r\n" for i in range(20_000)), newline="")
    p = P.open_input_file(String(str(path)))
    count = 0
    while (line := P.read_line(p)) is not EOF:
        assert line.s == f"line {count}"
        count += 1
    assert count == 20_000


def test_binary_file_round_trip(tmp_path):
    path = String(str(tmp_path / "data.bin"))
    out = P.open_binary_output_file(path)
    assert P.binary_port_p(out) and P.output_port_p(out)
    P.write_bytevector(bv(*range(256)), out)
    P.write_u8(7, out)
    P.close_port(out)
    p = P.open_binary_input_file(path)
    assert P.read_bytevector(256, p) == bv(*range(256))
    assert P.read_u8(p) == 7
    assert P.read_u8(p) is EOF
    P.close_port(p)


def test_call_with_files(tmp_path):
    path = String(str(tmp_path / "f.txt"))
    P.call_with_output_file(path, lambda port: P.write_string_(String("abc\n"), port))
    assert P.call_with_input_file(path, P.read_line).s == "abc"


def test_with_files_rebind_the_current_ports(tmp_path):
    path = String(str(tmp_path / "w.txt"))
    assert P.with_output_to_file(path, lambda: P.display(String("xyz"))) is None
    assert P.current_output_port() is P.CONSOLE_OUTPUT
    assert P.with_input_from_file(path, lambda: P.read_string(10)).s == "xyz"
    assert P.current_input_port() is P.CONSOLE_INPUT


def test_delete_file(tmp_path):
    target = tmp_path / "gone.txt"
    target.write_text("x")
    P.delete_file(String(str(target)))
    assert not P.file_exists_p(String(str(target)))


def test_file_errors_name_the_path_and_reason(tmp_path):
    missing = String(str(tmp_path / "missing.txt"))
    for proc, who in [(P.open_input_file, "open-input-file"),
                      (P.open_binary_input_file, "open-binary-input-file"),
                      (P.delete_file, "delete-file")]:
        with pytest.raises(SchemeError) as excinfo:
            proc(missing)
        payload = excinfo.value.payload
        assert payload.kind == "file"
        assert payload.irritants == (missing,)
        assert str(excinfo.value) == f"{who}: No such file or directory: {write_string(missing)}"
    with pytest.raises(SchemeError) as excinfo:
        P.open_output_file(String(str(tmp_path / "no-dir" / "x.txt")))
    assert excinfo.value.payload.kind == "file"
    with pytest.raises(SchemeError, match="call-with-input-file: No such file"):
        P.call_with_input_file(missing, P.read_line)


def test_file_procedures_check_their_arguments(tmp_path):
    with pytest.raises(SchemeError, match="open-input-file: expected a string, got 1"):
        P.open_input_file(1)
    with pytest.raises(SchemeError, match="file-exists\\?: expected a string"):
        P.file_exists_p(sym("x"))
    with pytest.raises(SchemeError, match="with-output-to-file: expected a procedure"):
        P.with_output_to_file(String(str(tmp_path / "x")), 1)


def test_libraries():
    base = LIBRARIES[("scheme", "base")]
    for name in ("read-char", "peek-char", "read-line", "read-string", "read-u8", "peek-u8",
                 "read-bytevector", "read-bytevector!", "char-ready?", "u8-ready?",
                 "write-char", "write-string", "write-u8", "write-bytevector", "newline",
                 "flush-output-port", "eof-object", "eof-object?", "current-input-port",
                 "current-output-port", "current-error-port", "call-with-port",
                 "open-input-string", "open-output-string", "get-output-string",
                 "open-input-bytevector", "open-output-bytevector", "get-output-bytevector",
                 "input-port-open?", "output-port-open?", "close-port", "close-input-port",
                 "close-output-port", "port?", "input-port?", "output-port?",
                 "textual-port?", "binary-port?"):
        assert name in base, name
    assert set(LIBRARIES[("scheme", "write")]) == {
        "write", "write-shared", "write-simple", "display"}
    assert set(LIBRARIES[("scheme", "read")]) == {"read"}
    assert set(LIBRARIES[("scheme", "file")]) == {
        "open-input-file", "open-output-file", "open-binary-input-file",
        "open-binary-output-file", "call-with-input-file", "call-with-output-file",
        "with-input-from-file", "with-output-to-file", "file-exists?", "delete-file"}
    assert set(LIBRARIES[("harness", "ports")]) == {
        "with-output-to-string", "call-with-output-string"}
    assert sys.stdout is not None


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ('(read-char (open-input-string "abc"))', "#\\a"),
    ('(let ((p (open-input-string "abc"))) (read-char p) (peek-char p))', "#\\b"),
    ('(read-line (open-input-string "one\\r\\ntwo"))', '"one"'),
    ('(read-string 3 (open-input-string "hello"))', '"hel"'),
    ('(eof-object? (read-char (open-input-string "")))', "#t"),
    ('(read (open-input-string "(a . b)"))', "(a . b)"),
    ("(let ((p (open-output-string))) (write 'x p) (display \"y\" p) (get-output-string p))",
     '"xy"'),
    ("(let ((p (open-output-string))) (write-string \"abcdef\" p 1 3) (get-output-string p))",
     '"bc"'),
    ("(let ((p (open-output-bytevector))) (write-u8 1 p) (get-output-bytevector p))",
     "#u8(1)"),
    ("(read-u8 (open-input-bytevector (bytevector 7 8)))", "7"),
    ("(input-port? (current-input-port))", "#t"),
    ("(textual-port? (current-output-port))", "#t"),
    ("(call-with-port (open-input-string \"xy\") read-char)", "#\\x"),
    ("(eof-object)", "#<eof>"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_level(src, expected):
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    value = interpreter.Interpreter().eval_string(src)
    assert write_string(value) == expected


# -- R7RS 6.13 checked procedure by procedure, from Scheme ---------------------------------

_BV = "(define p (open-input-bytevector (bytevector 1 2 3 4 5))) "
_LINES = "(define (lines p) (let loop ((acc '())) (let ((l (read-line p))) " \
         "(if (eof-object? l) (reverse acc) (loop (cons l acc)))))) "


@pytest.mark.parametrize("src,expected", [
    # binary input: peek-u8 does not consume; reads stop short at the end, then give eof
    (_BV + "(list (peek-u8 p) (read-u8 p) (read-u8 p) (peek-u8 p))", "(1 1 2 3)"),
    (_BV + "(list (read-bytevector 2 p) (read-bytevector 10 p) (eof-object? "
     "(read-bytevector 1 p)))", "(#u8(1 2) #u8(3 4 5) #t)"),
    (_BV + "(read-bytevector 0 p)", "#u8()"),
    (_BV + "(list (u8-ready? p) (u8-ready? (open-input-bytevector (bytevector))))", "(#t #t)"),
    (("(let ((p (open-input-bytevector (bytevector)))) (list (eof-object? (read-u8 p)) "
     "(eof-object? (peek-u8 p))))"), "(#t #t)"),
    # read-bytevector!: fills [start, end), answers the count, eof only when nothing is left
    (_BV + "(define v (make-bytevector 4 0)) (list (read-bytevector! v p 1 3) v)",
     "(2 #u8(0 1 2 0))"),
    (_BV + "(define v (make-bytevector 7 0)) (list (read-bytevector! v p) v)",
     "(5 #u8(1 2 3 4 5 0 0))"),
    (_BV + "(define v (make-bytevector 3 0)) (list (read-bytevector! v p 2) v)",
     "(1 #u8(0 0 1))"),
    (_BV + "(define v (make-bytevector 3 0)) (read-bytevector! v p 3 3)", "0"),
    (("(define v (make-bytevector 3 0)) "
     "(eof-object? (read-bytevector! v (open-input-bytevector (bytevector)) 0))"), "#t"),
    # text input
    (("(define p (open-input-string \"abcdef\")) "
     "(list (read-string 2 p) (read-string 10 p) (eof-object? (read-string 1 p)))"),
     '("ab" "cdef" #t)'),
    ("(read-string 0 (open-input-string \"abc\"))", '""'),
    ("(eof-object? (read-string 3 (open-input-string \"\")))", "#t"),
    ("(define p (open-input-string \"λx\")) (list (read-char p) (peek-char p) (read-char p))",
     "(#\\λ #\\x #\\x)"),
    (("(define p (open-input-string \"x\")) (list (char-ready? p) (read-char p) "
     "(char-ready? p) (eof-object? (read-char p)))"), "(#t #\\x #t #t)"),
    # read-line: LF, CRLF and CR end a line; a last line without one is a line
    (_LINES + "(lines (open-input-string \"a\\nb\\r\\nc\\rd\"))", '("a" "b" "c" "d")'),
    (_LINES + "(lines (open-input-string \"a\\n\\nb\"))", '("a" "" "b")'),
    (_LINES + "(lines (open-input-string \"a\\r\\n\\r\\nb\\n\"))", '("a" "" "b")'),
    (_LINES + "(lines (open-input-string \"a\\r\"))", '("a")'),
    (_LINES + "(lines (open-input-string \"\"))", "()"),
    # eof-object
    (("(list (eof-object? (eof-object)) (eq? (eof-object) (eof-object)) "
     "(eof-object? (peek-char (open-input-string \"\"))))"), "(#t #t #t)"),
    # bytevector output: write-u8, write-bytevector with ranges; get- copies what is there
    (("(define o (open-output-bytevector)) (write-u8 65 o) "
     "(write-bytevector (bytevector 1 2 3 4) o 1 3) (get-output-bytevector o)"), "#u8(65 2 3)"),
    (("(define o (open-output-bytevector)) (write-bytevector (bytevector 1 2 3 4) o 2) "
     "(get-output-bytevector o)"), "#u8(3 4)"),
    ("(get-output-bytevector (open-output-bytevector))", "#u8()"),
    (("(define o (open-output-bytevector)) (write-u8 1 o) (define a (get-output-bytevector o)) "
     "(write-u8 2 o) (list a (get-output-bytevector o))"), "(#u8(1) #u8(1 2))"),
    (("(utf8->string (let ((o (open-output-bytevector))) "
     "(write-bytevector (string->utf8 \"λ\") o) (get-output-bytevector o)))"), '"λ"'),
    # write-string with ranges
    ("(define o (open-output-string)) (write-string \"hello\" o 1 3) (get-output-string o)",
     '"el"'),
    ("(define o (open-output-string)) (write-string \"hello\" o 2) (get-output-string o)",
     '"llo"'),
    # closing: idempotent, input-port-open? / output-port-open? answer, the string stays
    (("(define p (open-input-string \"abc\")) (close-port p) (close-port p) "
     "(list (input-port-open? p) (input-port? p))"), "(#f #t)"),
    (("(define o (open-output-string)) (write-char #\\a o) (close-output-port o) "
     "(list (output-port-open? o) (get-output-string o))"), '(#f "a")'),
    (("(define p (open-input-string \"hi\")) (list (call-with-port p read-char) "
     "(input-port-open? p))"), "(#\\h #f)"),
    # what kind of port each one is
    (("(define p (open-input-string \"\")) (list (input-port? p) (output-port? p) "
     "(textual-port? p) (binary-port? p) (port? p))"), "(#t #f #t #f #t)"),
    (_BV + "(list (input-port? p) (textual-port? p) (binary-port? p))", "(#t #f #t)"),
    (("(let ((o (open-output-bytevector))) (list (output-port? o) (binary-port? o) "
     "(textual-port? o)))"), "(#t #t #f)"),
])
def test_r7rs_port_procedures(scheme, src, expected):
    assert scheme(src) == expected


@pytest.mark.parametrize("src,message", [
    (_BV + "(read-bytevector! (make-bytevector 3 0) p 2 1)", "read-bytevector!"),
    (_BV + "(read-bytevector! (make-bytevector 3 0) p 0 4)", "read-bytevector!"),
    ("(read-bytevector -1 (open-input-bytevector (bytevector 1)))", "read-bytevector"),
    ("(read-string -1 (open-input-string \"abc\"))", "read-string"),
    ("(write-u8 256 (open-output-bytevector))", "write-u8"),
    ("(write-u8 -1 (open-output-bytevector))", "write-u8"),
    ("(write-string \"hello\" (open-output-string) 3 2)", "write-string"),
    ("(write-string \"hello\" (open-output-string) 0 6)", "write-string"),
    # text and binary do not mix
    ("(write-u8 1 (open-output-string))", "write-u8"),
    ("(write-char #\\a (open-output-bytevector))", "write-char"),
    ("(newline (open-output-bytevector))", "newline"),
    ("(read-u8 (open-input-string \"a\"))", "read-u8"),
    ("(read-char (open-input-bytevector (bytevector 65)))", "read-char"),
    ("(get-output-bytevector (open-output-string))", "get-output-bytevector"),
    ("(get-output-string (open-output-bytevector))", "get-output-string"),
    ("(open-input-bytevector \"abc\")", "open-input-bytevector"),
    # a closed port refuses to be used
    ("(define p (open-input-string \"abc\")) (close-port p) (read-char p)", "closed"),
    ("(define p (open-input-string \"abc\")) (close-input-port p) (peek-char p)", "closed"),
    (_BV + "(close-port p) (read-u8 p)", "closed"),
    ("(define o (open-output-string)) (close-port o) (write-char #\\a o)", "closed"),
    ("(close-input-port (open-output-string))", "expected an input port"),
    ("(close-output-port (open-input-string \"\"))", "expected an output port"),
    ("(read (open-input-string \"(1 2\"))", "never closed"),
])
def test_r7rs_port_errors(scheme, src, message):
    assert message in scheme.error(src)


def test_a_host_process_that_exits_keeps_what_an_unclosed_file_port_got(tmp_path):
    # the port is held in a cycle (the procedure `ports` holds the globals), which the
    # process never finalizes: the exit flushes it (ports.report_unflushed_files)
    import subprocess
    out = tmp_path / "out.txt"
    program = (f'(define p (open-output-file "{out}")) (define (ports) p) '
               '(write-string "kept" p)')
    host = ("from harness.scheme.interpreter import Interpreter\n"
            f"Interpreter(tier='unsandboxed').eval_string({program!r})\n")
    done = subprocess.run([sys.executable, "-c", host], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "kept"
