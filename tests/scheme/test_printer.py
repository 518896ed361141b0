"""write / write-shared / write-simple / display, and condition messages."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.scheme import primitives
from harness.scheme.datatypes import (
    EOF,
    NIL,
    Bytevector,
    Char,
    Promise,
    RecordType,
    String,
    Values,
    Vector,
    py_to_list,
    sym,
)
from harness.scheme.errors import ErrorObject, SchemeError, SizeLimitExceeded
from harness.scheme.parameters import make_parameter
from harness.scheme.primitives import define
from harness.scheme.printer import (
    char_literal,
    describe_condition,
    display_string,
    string_literal,
    symbol_literal,
    write_shared_string,
    write_simple_string,
    write_string,
)
from harness.scheme.reader import read_all


def lst(*items):
    return py_to_list(items)


def read_back(text):
    values, _ = read_all(text)
    assert len(values) == 1
    return values[0]


# -- atoms ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    (True, "#t"), (False, "#f"), (0, "0"), (-42, "-42"), (10**30, str(10**30)),
    (Fraction(1, 3), "1/3"), (1.5, "1.5"), (float("inf"), "+inf.0"), (NIL, "()"),
    (None, "#<unspecified>"), (EOF, "#<eof>"), (sym("abc"), "abc"), (sym("λx"), "λx"),
    (String("hi"), '"hi"'), (String(""), '""'), (Char.of("a"), "#\\a"),
    (Bytevector(bytearray(b"\x01\xff")), "#u8(1 255)"), (Bytevector(bytearray()), "#u8()"),
    (Vector([]), "#()"), (Vector([1, sym("a"), String("s")]), '#(1 a "s")'),
])
def test_write_atoms_and_flat_data(value, expected):
    assert write_string(value) == expected


def test_huge_integer_beyond_pythons_digit_limit():
    n = 10**5000
    assert write_string(n) == "1" + "0" * 5000


@pytest.mark.parametrize("text, expected", [
    ('a"b', r'"a\"b"'), ("back\\slash", r'"back\\slash"'), ("l1\nl2", r'"l1\nl2"'),
    ("\t\r\a\b", r'"\t\r\a\b"'), ("\x00\x01\x7f", r'"\x0;\x1;\x7f;"'), ("λ→é", '"λ→é"'),
    ("\u200b", r'"\x200b;"'),
])
def test_string_escapes(text, expected):
    assert string_literal(text) == expected
    assert write_string(String(text)) == expected


@pytest.mark.parametrize("c, expected", [
    ("a", "#\\a"), ("λ", "#\\λ"), (" ", "#\\space"), ("\n", "#\\newline"), ("\t", "#\\tab"),
    ("\r", "#\\return"), ("\0", "#\\null"), ("\a", "#\\alarm"), ("\b", "#\\backspace"),
    ("\x7f", "#\\delete"), ("\x1b", "#\\escape"), ("\x01", "#\\x1"), ("\u2028", "#\\x2028"),
    ("(", "#\\("), ("x", "#\\x"),
])
def test_char_literals(c, expected):
    assert char_literal(c) == expected
    assert write_string(Char.of(c)) == expected


@pytest.mark.parametrize("name, expected", [
    ("abc", "abc"), ("+", "+"), ("-", "-"), ("...", "..."), ("->x", "->x"), ("a.b", "a.b"),
    ("1abc", "|1abc|"), ("", "||"), (".", "|.|"), ("a b", "|a b|"), ("1", "|1|"),
    ("-5", "|-5|"), ("+i", "|+i|"), ("+inf.0", "|+inf.0|"), (".5", "|.5|"), ("1/2", "|1/2|"),
    ("#foo", "|#foo|"), ("a|b", r"|a\|b|"), ("a(b", "|a(b|"), ("x;y", "|x;y|"),
    ("it's", "|it's|"), ("a\nb", r"|a\xa;b|"), ("back\\", r"|back\\|"),
    # what only starts like a number is barred too, as chibi-scheme writes it
    ("+NaN.0abc", "|+NaN.0abc|"), ("+nan.0", "|+nan.0|"), ("-inf.0x", "|-inf.0x|"),
    ("\\123", r"|\\123|"), ("123abc", "|123abc|"), ("-.4", "|-.4|"), ("+3", "|+3|"),
    ("+a", "+a"), ("-x-", "-x-"), ("+.a", "+.a"), ("λ", "λ"), ("a-b-c", "a-b-c"),
])
def test_symbols_are_barred_only_when_needed(name, expected):
    assert symbol_literal(name) == expected


@pytest.mark.parametrize("name", ["+NaN.0abc", "\\123", "123abc", "a b", "|", "+i", "x\\"])
def test_written_symbols_read_back_as_themselves(name):
    from harness.scheme.datatypes import Symbol
    assert read_back(symbol_literal(name)) is Symbol.intern(name)


def test_barred_symbol_with_backslash_escapes_it():
    assert symbol_literal("a b\\c") == r"|a b\\c|"


def test_display_writes_raw_text():
    data = lst(String('a"b'), Char.of(" "), sym("a b"), 1)
    assert display_string(data) == '(a"b   a b 1)'
    assert display_string(String("x\ny")) == "x\ny"
    assert display_string(Char.of("\n")) == "\n"


# -- lists and vectors ---------------------------------------------------------------------

def test_lists():
    assert write_string(lst(1, 2, 3)) == "(1 2 3)"
    assert write_string([1, [2, 3]]) == "(1 2 . 3)"
    assert write_string([1, 2]) == "(1 . 2)"
    assert write_string(lst(lst(), lst(lst(1)), Vector([lst(2)]))) == "(() ((1)) #((2)))"
    assert write_string(lst(sym("quote"), sym("x"))) == "(quote x)"


def test_nested_vectors_and_lists():
    v = Vector([lst(1, Vector([2])), String("s"), Vector([])])
    assert write_string(v) == '#((1 #(2)) "s" #())'


def test_million_element_list_prints():
    text = write_string(py_to_list(range(1_000_000)))
    assert text.startswith("(0 1 2 ") and text.endswith(" 999999)")


def test_deep_car_nesting_prints():
    x = NIL
    for _ in range(100_000):
        x = [x, NIL]
    text = write_string(x)
    assert text == "(" * 100_000 + "()" + ")" * 100_000


def test_deep_vector_nesting_prints():
    v = Vector([])
    for _ in range(100_000):
        v = Vector([v])
    assert display_string(v) == "#(" * 100_000 + "#()" + ")" * 100_000


# -- cycles and sharing --------------------------------------------------------------------

def test_cdr_cycle():
    x = lst(1, 2, 3)
    x[1][1][1] = x
    assert write_string(x) == "#0=(1 2 3 . #0#)"
    assert display_string(x) == "#0=(1 2 3 . #0#)"


def test_cycle_into_the_middle_of_a_list():
    x = lst(1, 2, 3)
    x[1][1][1] = x[1]
    assert write_string(x) == "(1 . #0=(2 3 . #0#))"


def test_car_cycle():
    x = [NIL, NIL]
    x[0] = x
    assert write_string(x) == "#0=(#0#)"


def test_vector_cycle():
    v = Vector([1, None])
    v.items[1] = v
    assert write_string(v) == "#0=#(1 #0#)"


def test_two_cycles_get_two_labels():
    a = lst(sym("a"))
    a[1] = a
    b = lst(sym("b"))
    b[1] = b
    assert write_string(lst(a, b)) == "(#0=(a . #0#) #1=(b . #1#))"


def test_write_labels_only_cycles_but_write_shared_labels_sharing():
    shared = lst(1, 2)
    data = lst(shared, shared)
    assert write_string(data) == "((1 2) (1 2))"
    assert write_shared_string(data) == "(#0=(1 2) #0#)"
    v = Vector([shared, shared])
    assert write_shared_string(v) == "#(#0=(1 2) #0#)"


def test_shared_tail_in_write_shared():
    tail = lst(3)
    data = lst([1, tail], [2, tail])
    assert write_shared_string(data) == "((1 . #0=(3)) (2 . #0#))"


def test_cyclic_output_reads_back_as_the_same_shape():
    x = lst(1, Vector([2, None]), 3)
    x[1][0].items[1] = x
    x[1][1][1] = x[1]
    back = read_back(write_string(x))
    assert back[0] == 1
    assert back[1][0].items[0] == 2
    assert back[1][0].items[1] is back
    assert back[1][1][1] is back[1]


def test_write_shared_reads_back_with_the_same_sharing():
    shared = lst(1)
    back = read_back(write_shared_string(lst(shared, Vector([shared]))))
    assert back[0] is back[1][0].items[0]


def test_write_simple_has_no_labels_and_refuses_a_cycle():
    shared = lst(1)
    assert write_simple_string(lst(shared, shared)) == "((1) (1))"
    x = lst(1)
    x[1] = x
    with pytest.raises(SchemeError) as excinfo:
        write_simple_string(x)
    assert str(excinfo.value) == "write-simple: cannot write circular data #0=(1 . #0#)"


def test_exponential_dag_is_capped():
    x = lst(1)
    for _ in range(40):
        x = [x, x]
    with pytest.raises(SizeLimitExceeded):
        write_string(x, limit=100_000)


def test_long_atom_is_capped():
    with pytest.raises(SizeLimitExceeded):
        write_string(String("x" * 100), limit=50)


# -- opaque values -------------------------------------------------------------------------

def test_procedures_show_their_scheme_name_and_nothing_of_python(monkeypatch):
    def helper_proc(x):
        return x

    # a library of this test's own, gone afterwards (the library list is global)
    monkeypatch.setattr(primitives, "LIBRARIES", {**primitives.LIBRARIES})
    define("test printer", "my-proc", helper_proc)
    assert write_string(helper_proc) == "#<procedure my-proc>"

    def make():
        def inner():
            return 1
        return inner

    assert write_string(make()) == "#<procedure inner>"
    assert write_string(lambda: 1) == "#<procedure>"
    assert "0x" not in write_string(print) and "builtins" not in write_string(print)


@pytest.mark.parametrize("qualname, expected", [
    ("make.<locals>.s_foo", "#<procedure foo>"),
    ("make.<locals>.s_a__b_2e_c", "#<procedure a_b.c>"),
    ("make.<locals>.s_f.<locals>.v12_loop", "#<procedure loop>"),
    ("make.<locals>.t3", "#<procedure>"),
    ("make.<locals>.t3_bar", "#<procedure bar>"),
    ("make-point", "#<procedure make-point>"),
])
def test_compiled_procedures_show_their_scheme_name(qualname, expected):
    def fn():
        return None

    fn.__qualname__ = qualname
    assert write_string(fn) == expected


def test_scheme_procedures_print_their_names():
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    interp = interpreter.Interpreter()
    assert write_string(interp.eval_string("(define (foo) 1) foo")) == "#<procedure foo>"
    assert write_string(interp.eval_string("(lambda (x) x)")) == "#<procedure>"
    assert write_string(interp.eval_string("car")) == "#<procedure car>"


def test_long_printing_obeys_the_time_limit():
    from harness.scheme.errors import TimeLimitExceeded
    from harness.scheme.limits import Budget

    x = lst(1)
    for _ in range(60):
        x = [x, x]
    with pytest.raises(TimeLimitExceeded), Budget(steps=None, seconds=0.05):
        write_string(x)


def test_records():
    point = RecordType("<point>", ("x", "y"))
    p = point.instance_class()
    p.f0, p.f1 = 1, String("a")
    assert write_string(p) == '#<point 1 "a">'
    assert display_string(p) == "#<point 1 a>"
    assert write_string(point) == "#<record-type point>"
    empty = RecordType("thing", ())
    assert write_string(empty.instance_class()) == "#<thing>"


def test_cyclic_record_terminates():
    node = RecordType("node", ("next",))
    n = node.instance_class()
    n.f0 = n
    assert write_string(n) == "#0=#<node #0#>"


def test_error_objects():
    e = ErrorObject("bad thing", (1, String("x")))
    assert write_string(e) == '#<error "bad thing" 1 "x">'
    assert write_string(ErrorObject("plain")) == '#<error "plain">'


def test_other_opaque_values():
    assert write_string(Promise(True, 1)) == "#<promise>"
    assert write_string(make_parameter(1)) == "#<parameter>"
    assert write_string({1: 2, 3: 4}) == "#<hash-table 2>"

    class HashTable:
        def __init__(self):
            self.table = {1: 1}

    assert write_string(HashTable()) == "#<hash-table 1>"

    class Environment:
        pass

    assert write_string(Environment()) == "#<environment>"


def test_values_are_written_space_separated():
    assert write_string(Values((1, String("a"), sym("b")))) == '1 "a" b'
    assert write_string(Values(())) == ""


# -- condition messages --------------------------------------------------------------------

def test_describe_error_made_by_scheme_error():
    e = ErrorObject("foo: bad thing", (1, String("x")))
    assert describe_condition(e) == 'foo: bad thing 1 "x"'


def test_describe_primitive_error_does_not_repeat_the_irritant():
    e = ErrorObject("car: expected a pair, got ()", (NIL,))
    assert describe_condition(e) == "car: expected a pair, got ()"


def test_describe_error_without_irritants():
    assert describe_condition(ErrorObject("plain")) == "plain"


def test_describe_non_error_payload():
    assert describe_condition(sym("oops")) == "uncaught exception: oops"
    assert describe_condition(lst(1, String("a"))) == 'uncaught exception: (1 "a")'


def test_scheme_error_message_uses_describe_condition():
    from harness.scheme.errors import error, wrong_type
    assert str(error("boom", 1, 2)) == "boom 1 2"
    assert str(wrong_type("car", "a pair", NIL)) == "car: expected a pair, got ()"


# -- round trips through the reader --------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.text(max_size=20))
def test_strings_read_back(text):
    assert read_back(write_string(String(text))) == String(text)


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_symbols_read_back(name):
    assert read_back(write_string(sym(name))) is sym(name)


@settings(max_examples=60, deadline=None)
@given(st.characters(exclude_categories=("Cs",)))  # a surrogate is no Scheme character
def test_chars_read_back(c):
    assert read_back(write_string(Char.of(c))) is Char.of(c)


def build_graph(spec):
    """Pairs and vectors from ``spec``: per node ("pair" | "vector", slots), where a slot
    is ("atom", n) or ("ref", node index). Node 0 is the root."""
    nodes = [[None, None] if kind == "pair" else Vector([None] * len(slots))
             for kind, slots in spec]
    for node, (kind, slots) in zip(nodes, spec):
        items = node if kind == "pair" else node.items
        for k, (tag, value) in enumerate(slots):
            items[k] = value if tag == "atom" else nodes[value % len(nodes)]
    return nodes[0]


def parts_of(x):
    return x if x.__class__ is list else x.items


def same_shape(a, b, bijective=False):
    """The two graphs unfold to the same infinite tree (and, if ``bijective``, have the
    same nodes: one read-back node for each original node)."""
    assumed, image, preimage = set(), {}, {}
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x.__class__ not in (list, Vector):
            if x != y:
                return False
            continue
        if x.__class__ is not y.__class__ or len(parts_of(x)) != len(parts_of(y)):
            return False
        if bijective and (image.setdefault(id(x), y) is not y
                          or preimage.setdefault(id(y), x) is not x):
            return False
        if (id(x), id(y)) in assumed:
            continue
        assumed.add((id(x), id(y)))
        stack.extend(zip(parts_of(x), parts_of(y)))
    return True


slot = st.one_of(st.tuples(st.just("atom"), st.integers(0, 3)),
                 st.tuples(st.just("ref"), st.integers(0, 7)))
node_spec = st.one_of(st.tuples(st.just("pair"), st.lists(slot, min_size=2, max_size=2)),
                      st.tuples(st.just("vector"), st.lists(slot, max_size=3)))


@settings(max_examples=80, deadline=None)
@given(st.lists(node_spec, min_size=1, max_size=8))
def test_any_graph_writes_and_reads_back(spec):
    root = build_graph(spec)
    assert same_shape(root, read_back(write_string(root)))
    assert same_shape(root, read_back(display_string(root)))
    assert same_shape(root, read_back(write_shared_string(root)), bijective=True)


# -- Scheme level --------------------------------------------------------------------------

CASES = [
    ("'(1 2 . 3)", "(1 2 . 3)"),
    ("'(quote x)", "(quote x)"),
    ("(let ((x (list 1 2))) (set-cdr! (cdr x) x) x)", "#0=(1 2 . #0#)"),
    ("(vector 1 \"a\" #\\b 'c)", '#(1 "a" #\\b c)'),
    ("(string->symbol \"hello world\")", "|hello world|"),
    ("(string #\\a #\\newline)", '"a\\n"'),
    ("(bytevector 1 2)", "#u8(1 2)"),
]


@pytest.mark.parametrize("src, expected", CASES)
def test_scheme_level(src, expected):
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    value = interpreter.Interpreter().eval_string(src)
    assert write_string(value) == expected
