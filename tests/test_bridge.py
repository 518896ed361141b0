"""JSON <-> Scheme (SPEC §6) and exact JSON text."""


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.bridge import (
    ANSWER_DEPTH,
    BridgeError,
    dumps,
    json_to_scheme,
    loads,
    scheme_to_json,
)
from harness.hooks.outcome import NO_ANSWER
from harness.scheme.datatypes import NIL, Char, String, Vector, is_frozen, py_to_list, sym


def slist(*items):
    return py_to_list(items)


def pair(a, d):
    return [a, d]


def s(text):
    return String(text)


# --- JSON -> Scheme --------------------------------------------------------------------------

def test_object_keys_are_one_shared_immutable_string_per_text():
    first = json_to_scheme({"tool_name": "ls", "nested": {"tool_name": "x"}})
    second = json_to_scheme({"tool_name": "rm"})
    key = first[0][0]
    assert key is second[0][0] is first[1][0][1][0][0]   # shared across conversions
    assert first[0][1] is not second[0][1]                 # values are fresh each time
    assert is_frozen(key) and not is_frozen(first[0][1]) and not is_frozen(String("tool_name"))


def test_a_key_too_long_to_share_is_a_fresh_mutable_string():
    text = "k" * 300
    a, b = json_to_scheme({text: 1}), json_to_scheme({text: 1})
    assert a[0][0] == b[0][0] and a[0][0] is not b[0][0] and not is_frozen(a[0][0])


def test_object_becomes_alist_with_string_keys_in_key_order():
    value = json_to_scheme({"zeta": 1, "alpha": "x", "mid": None})
    assert value == slist(pair(s("zeta"), 1), pair(s("alpha"), s("x")),
                          pair(s("mid"), sym("null")))


def test_scalars():
    assert json_to_scheme(None) is sym("null")
    assert json_to_scheme(True) is True
    assert json_to_scheme(False) is False
    assert json_to_scheme(7) == 7
    assert json_to_scheme(2 ** 100) == 2 ** 100
    assert json_to_scheme(1.5) == 1.5
    assert json_to_scheme("hi") == s("hi")


def test_arrays_and_nesting():
    value = json_to_scheme({"tools": [{"name": "a"}, [1, [2]], []], "empty": {}})
    tools = slist(slist(pair(s("name"), s("a"))), slist(1, slist(2)), NIL)
    assert value == slist(pair(s("tools"), tools), pair(s("empty"), NIL))


def test_unsupported_python_value():
    with pytest.raises(BridgeError, match="set"):
        json_to_scheme({"a": {1, 2}})


def test_long_and_deep_values_do_not_recurse():
    long = list(range(100_000))  # long, not deep: one frame
    assert scheme_to_json(json_to_scheme(long)) == long
    deep: list = []
    node = deep
    for _ in range(20_000):
        child = [0]
        node.append(child)
        node = child
    back = scheme_to_json(json_to_scheme(deep), max_depth=30_000)
    depth = 0
    while isinstance(back, list):  # compare by walking: == itself would recurse
        back = back[-1]
        depth += 1
    assert depth == 20_001
    assert dumps(back) == b"0"


def test_an_answer_nested_too_deep_is_an_error_naming_the_cap():
    deep = NIL
    for _ in range(ANSWER_DEPTH + 1):
        deep = slist(deep)
    with pytest.raises(BridgeError, match=f"nested more than {ANSWER_DEPTH} levels deep"):
        scheme_to_json(deep, where="post_message hook at x.scm:1")
    for _ in range(2):  # just under the cap: fine, and orjson writes it
        deep = deep[0]
    assert dumps(scheme_to_json(deep)).startswith(b"[[[[")


def test_shared_structure_cannot_expand_past_the_node_cap():
    dag = slist(1)
    for _ in range(40):  # 2**40 leaves once expanded
        dag = slist(dag, dag)
    with pytest.raises(BridgeError, match="holds more than 1,000 values"):
        scheme_to_json(dag, max_nodes=1000)


def test_text_past_the_character_cap_is_an_error():
    big = s("x" * 1000)
    with pytest.raises(BridgeError, match="holds more than 10,000 characters"):
        scheme_to_json(slist(*[big] * 11), max_chars=10_000)


def test_dumps_writes_what_orjson_refuses_without_recursing():
    deep: list = [1]
    for _ in range(100_000):
        deep = [deep]
    text = dumps({"a": deep, "n": 2 ** 70, 1: None})
    assert text.startswith(b'{"a":' + b"[" * 100_001 + b"1]")
    assert text.endswith(b',"n":1180591620717411303424,"1":null}')


def test_dumps_of_many_huge_integers_is_linear():
    huge = [10 ** 5000 + i for i in range(200)]
    assert loads(dumps(huge)) == huge


# --- Scheme -> JSON ---------------------------------------------------------------------------

def test_empty_list_at_top_level_is_no_answer():
    assert scheme_to_json(NIL) is NO_ANSWER
    assert scheme_to_json(None) is NO_ANSWER  # an unspecified result says nothing either


def test_alist_with_string_or_symbol_keys_is_an_object():
    answer = slist(pair(s("prompt"), s("new")), pair(sym("block"), True))
    assert scheme_to_json(answer) == {"prompt": "new", "block": True}


def test_spec_example_exclude_list():
    answer = slist(pair(s("exclude"), slist(s("a"), s("b"))))
    assert scheme_to_json(answer) == {"exclude": ["a", "b"]}


def test_nested_answers():
    body = slist(pair(s("temperature"), 0.1), pair(s("stop"), slist(s("END"))))
    answer = slist(pair(s("request_body"), body),
                   pair(s("arguments"), slist(pair(s("path"), s("/tmp")),
                                              pair(s("opts"), NIL))))
    assert scheme_to_json(answer) == {
        "request_body": {"temperature": 0.1, "stop": ["END"]},
        "arguments": {"path": "/tmp", "opts": []}}


def test_key_order_is_kept_and_first_duplicate_wins():
    answer = slist(pair(s("b"), 1), pair(s("a"), 2), pair(s("b"), 3))
    assert list(scheme_to_json(answer).items()) == [("b", 1), ("a", 2)]


def test_other_lists_are_arrays():
    assert scheme_to_json(slist(1, 2, 3)) == [1, 2, 3]
    assert scheme_to_json(slist(slist(pair(s("a"), 1)), 2)) == [{"a": 1}, 2]
    assert scheme_to_json(slist(slist(1, 2), slist(s("a")))) == [[1, 2], ["a"]]


def test_improper_list_is_an_error():
    with pytest.raises(BridgeError, match=r"answer: an improper list"):
        scheme_to_json(pair(s("prompt"), s("x")))  # forgot the outer (list ...)
    with pytest.raises(BridgeError, match=r"answer\[0\]: an improper list"):
        scheme_to_json(slist(pair(1, 2)))


def test_vectors_are_arrays_and_symbols_strings():
    answer = slist(pair(s("v"), Vector([1, s("x"), sym("null"), sym("call_user")])))
    assert scheme_to_json(answer) == {"v": [1, "x", None, "call_user"]}
    assert scheme_to_json(sym("null")) is None


def test_numbers():
    from fractions import Fraction

    assert scheme_to_json(slist(2 ** 200, Fraction(4, 2), Fraction(1, 4), 2.5)) == [
        2 ** 200, 2, 0.25, 2.5]


def test_hash_table_is_an_object():
    class Table:  # duck-typed like the srfi 69 hash table
        def items(self):
            return [(s("x"), 1), (sym("y"), slist(1))]

    assert scheme_to_json(slist(pair(s("t"), Table()))) == {"t": {"x": 1, "y": [1]}}


def test_hash_table_with_a_bad_key():
    class Table:
        def items(self):
            return [(1, 1)]

    with pytest.raises(BridgeError, match="hash table key 1"):
        scheme_to_json(Table())


@pytest.mark.parametrize(("bad", "described"), [
    (Char.of("a"), "a character"),
    (lambda x: x, "a procedure"),
    (complex(1, 2), "has no JSON form"),
])
def test_values_without_json_form_name_where_they_are(bad, described):
    answer = slist(pair(s("request_body"), slist(pair(s("messages"), slist(1, bad)))))
    with pytest.raises(BridgeError) as info:
        scheme_to_json(answer, where="pre_api_request hook in tools/x.scm:4")
    message = str(info.value)
    assert message.startswith("pre_api_request hook in tools/x.scm:4: answer"
                              ".request_body.messages[1]: ")
    assert described in message


def test_circular_values_are_errors():
    loop = slist(1, 2)
    loop[1][1] = loop
    with pytest.raises(BridgeError, match="circular"):
        scheme_to_json(loop)
    inner = slist(1)
    outer = slist(inner)
    inner[0] = outer
    with pytest.raises(BridgeError, match="contains itself"):
        scheme_to_json(outer)


def test_shared_but_not_circular_is_fine():
    shared = slist(1, 2)
    assert scheme_to_json(slist(shared, shared)) == [[1, 2], [1, 2]]


# --- round trips and JSON text ----------------------------------------------------------------

def _not_alist_like(items: list) -> bool:
    """A list of lists headed by strings (or nulls, i.e. symbols) reads back as an object."""
    return not all(isinstance(x, list) and x and (x[0] is None or isinstance(x[0], str))
                   for x in items)


keys = st.text(max_size=6)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | keys,
    lambda children: st.lists(children, min_size=1, max_size=4).filter(_not_alist_like)
    | st.dictionaries(keys, children, min_size=1, max_size=4),
    max_leaves=10)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(keys, json_values, min_size=1, max_size=4))
def test_round_trip(value):
    assert scheme_to_json(json_to_scheme(value)) == value


def test_empty_containers_round_trip_as_empty_arrays():
    assert scheme_to_json(json_to_scheme({"a": {}, "b": []})) == {"a": [], "b": []}


def test_big_integers_stay_exact_in_text():
    big = 123456789012345678901234567890
    assert loads(b'{"n": 123456789012345678901234567890, "m": 1}') == {"n": big, "m": 1}
    assert loads("[-123456789012345678901234567890]") == [-big]
    assert loads("18446744073709551615") == 18446744073709551615
    assert dumps({"n": big}) == b'{"n":123456789012345678901234567890}'
    assert loads(dumps([big, 1.5, "x"])) == [big, 1.5, "x"]


def test_dumps_fallback_keeps_orjson_conventions():
    assert dumps([2 ** 70, float("nan"), float("inf")]) == b"[1180591620717411303424,null,null]"
    assert loads(dumps({"s": "a\ud800b", "n": 2 ** 64})) == {"s": "a\ufffdb", "n": 2 ** 64}
    assert dumps({"a": [1, {"b": None}]}) == b'{"a":[1,{"b":null}]}'


def test_loads_rejects_bad_json():
    with pytest.raises(ValueError):
        loads("{nope")


def test_one_megabyte_request_round_trips():
    messages = [{"role": "user" if i % 2 else "assistant", "content": "x" * 5000,
                 "name": f"m{i}"} for i in range(200)]
    body = {"model": "m", "temperature": 0.7, "messages": messages}
    assert len(dumps(body)) > 1_000_000
    back = scheme_to_json(json_to_scheme(body))
    assert back == body


# --- answers written in Scheme ------------------------------------------------------------------

SCHEME_ANSWERS = [
    ('(list (cons "exclude" (list "a" "b")))', {"exclude": ["a", "b"]}),
    ("'((request_body . ((temperature . 0.1))) (n . 123456789012345678901234567890))",
     {"request_body": {"temperature": 0.1}, "n": 123456789012345678901234567890}),
    ("'((arguments . ((path . \"/tmp\") (flags . ()))) (block . #f))",
     {"arguments": {"path": "/tmp", "flags": []}, "block": False}),
    ("(vector 1 'null \"x\" 'call_user)", [1, None, "x", "call_user"]),
    ("'()", NO_ANSWER),
]


@pytest.mark.parametrize(("src", "expected"), SCHEME_ANSWERS)
def test_answers_written_in_scheme(src, expected):
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    value = interpreter.Interpreter().eval_string(src)
    assert scheme_to_json(value, where="test") == expected


def test_payload_read_with_assoc_in_scheme():
    interpreter = pytest.importorskip("harness.scheme.interpreter")
    interp = interpreter.Interpreter()
    payload = json_to_scheme({"tool_name": "shell_exec", "arguments": {"command": "ls"}})
    proc = interp.eval_string(
        '(lambda (p) (cdr (assoc "command" (cdr (assoc "arguments" p)))))')
    assert proc(payload) == s("ls")


def test_negative_integers_beyond_the_direct_conversion_stay_exact():
    # found by tests/fuzz/test_answer_fuzz.py: the sign went into the digit conversion
    for n in (-(10 ** 4400) - 7, -(2 ** 20000) + 3):
        assert loads(dumps(n)) == n


def test_an_integer_too_long_for_scheme_is_bad_json_not_a_crash():
    with pytest.raises(ValueError, match="exceeds"):
        loads("[" + "9" * 1_000_001 + "]")
