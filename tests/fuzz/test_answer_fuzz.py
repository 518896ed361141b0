"""The answer -> JSON path fuzzed (issue 11), bounded for CI: whatever value a hook
returns — deep, shared, circular, huge, with characters JSON cannot hold — the dispatcher's
conversion (``scheme_to_json``, then ``dumps``) gives JSON text that parses back to the
same data, or a ``BridgeError`` naming where in the answer the problem is. Never another
exception, never a crash, never a hang (a per-example alarm). The error text of the same
value (``describe_condition``, what a raise of it reports) is bounded and never fails.

The long run is bench/fuzz_answers.py; the number of values tried is printed in the
terminal summary ("answer fuzz: N values").
"""

from __future__ import annotations

import math
import signal
from fractions import Fraction

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from harness.bridge import BridgeError, dumps, loads, scheme_to_json
from harness.hooks.outcome import NO_ANSWER
from harness.scheme.datatypes import EOF, NIL, Char, String, Symbol, Vector
from harness.scheme.errors import StepLimitExceeded
from harness.scheme.limits import Budget
from harness.scheme.primitives.hashtables import HashTable
from harness.scheme.printer import MAX_MESSAGE_CHARS, describe_condition

EXAMPLE_ALARM = 10.0
#: the budget a conversion runs in (a hook's conversion runs in the hook's budget)
STEPS = 100_000
COUNTS = {"values": 0, "json": 0, "refused": 0, "over budget": 0}

# -- building Scheme values from a recipe -----------------------------------------------------
# A recipe is a tree of tuples; ``build`` turns it into Scheme data with the sharing,
# cycles and depth it asks for (hypothesis shrinks recipes, which stay printable).

_JSON_LESS = st.one_of(  # values with no JSON form: a quarter of the atoms
    st.complex_numbers(max_magnitude=1e6, allow_nan=False, min_magnitude=1e-3),
    st.sampled_from(["eof", "char", "procedure"]),
)
ATOMS = st.one_of(
    st.integers(min_value=-(2 ** 80), max_value=2 ** 80),
    st.sampled_from([5000, -4400, 19, -20]).map(lambda d: ("digits", d)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.fractions(max_denominator=1000),
    st.booleans(),
    st.text(max_size=20).map(lambda t: ("string", t)),
    st.sampled_from(["\ud800", "a\udfffb", "\x00\x1f\"\\", "\u2028é😀"]).map(
        lambda t: ("string", t)),
    st.sampled_from(["null", "block", "a b", "", "|x|"]).map(lambda n: ("symbol", n)),
    st.sampled_from(["nil", "none"]),
    _JSON_LESS,
)


def _recipes() -> st.SearchStrategy:
    keys = st.one_of(st.text(max_size=6).map(lambda t: ("string", t)),
                     st.sampled_from(["k", "null", "x"]).map(lambda n: ("symbol", n)))
    return st.recursive(ATOMS, lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(lambda xs: ("list", xs)),
        st.tuples(st.lists(inner, min_size=1, max_size=3), inner).map(
            lambda p: ("dotted", p[0], p[1])),
        st.lists(inner, max_size=4).map(lambda xs: ("vector", xs)),
        st.lists(st.tuples(keys, inner), max_size=4).map(lambda kv: ("alist", kv)),
        st.lists(st.tuples(keys, inner), max_size=3).map(lambda kv: ("table", kv)),
        st.tuples(st.integers(1, 45), inner).map(lambda p: ("shared", p[0], p[1])),
        st.tuples(st.sampled_from([150, 250, 20_000]), inner).map(
            lambda p: ("deep", p[0], p[1])),
        st.lists(inner, min_size=1, max_size=3).map(lambda xs: ("cycle", xs)),
        st.lists(inner, max_size=5).map(lambda xs: ("list", xs)),  # lists twice as often
        st.integers(1, 100_000).map(lambda n: ("long", n)),
        st.sampled_from([10 ** 5, 10 ** 6]).map(lambda n: ("big-string", n)),
    ), max_leaves=12)


RECIPES = _recipes()


def build(recipe: object) -> object:
    """The Scheme value a recipe describes."""
    if not isinstance(recipe, (tuple, str)):
        return recipe if not isinstance(recipe, Fraction) or recipe.denominator != 1 \
            else int(recipe)
    if isinstance(recipe, str):
        return {"nil": NIL, "none": None, "eof": EOF, "char": Char.of("x"),
                "procedure": build}[recipe]
    kind = recipe[0]
    if kind == "digits":  # an integer of that many digits (beyond 64 bits, beyond 4,300)
        n = 10 ** abs(recipe[1]) + 7
        return n if recipe[1] > 0 else -n
    if kind == "string":
        return String(recipe[1])
    if kind == "symbol":
        return Symbol.intern(recipe[1])
    if kind == "list":
        return _slist([build(x) for x in recipe[1]])
    if kind == "dotted":
        return _slist([build(x) for x in recipe[1]], build(recipe[2]))
    if kind == "vector":
        return Vector([build(x) for x in recipe[1]])
    if kind == "alist":
        return _slist([[build(k), build(v)] for k, v in recipe[1]])
    if kind == "table":
        table = HashTable()
        for k, v in recipe[1]:
            key = build(k)
            table.store(table.slot(key), key, build(v))
        return table
    if kind == "shared":  # (list x x) nested: 2**levels leaves once expanded
        x = build(recipe[2])
        for _ in range(recipe[1]):
            x = _slist([x, x])
        return x
    if kind == "deep":
        x = build(recipe[2])
        for _ in range(recipe[1]):
            x = _slist([x])
        return x
    if kind == "cycle":
        head = _slist([build(x) for x in recipe[1]])
        last = head
        while last[1] is not NIL:
            last = last[1]
        last[1] = head
        return head
    if kind == "long":
        return _slist(list(range(recipe[1])))
    if kind == "big-string":
        return String("x" * recipe[1])
    raise ValueError(recipe)


def _slist(items: list, tail: object = NIL) -> object:
    result = tail
    for item in reversed(items):
        result = [item, result]
    return result


# -- the property -----------------------------------------------------------------------------

def summary_line() -> str:
    """What tests/fuzz/conftest.py prints in the terminal summary."""
    return ("answer fuzz: {values} values ({json} as JSON, {refused} refused with a "
            "BridgeError, {over budget} over the step budget)").format(**COUNTS)


def _utf8(text: str) -> str:
    """``text`` as JSON text can hold it: a lone surrogate becomes U+FFFD."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _same_json(a: object, b: object) -> bool:
    """Equal as JSON data: NaN and infinities became null, lone surrogates U+FFFD;
    compared without recursion."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, float) and not math.isfinite(x):
            if y is not None:
                return False
        elif isinstance(x, dict):
            if not isinstance(y, dict) or [_utf8(k) for k in x] != list(y):
                return False
            stack.extend((x[k], y[_utf8(k)]) for k in x)
        elif isinstance(x, list):
            if not isinstance(y, list) or len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, str):
            if _utf8(x) != y:
                return False
        elif x != y or type(x) is not type(y):
            return False
    return True


def check_answer(value: object) -> None:
    """The property, on one Scheme value (see the module docstring)."""
    COUNTS["values"] += 1
    signal.setitimer(signal.ITIMER_REAL, EXAMPLE_ALARM)
    try:
        with Budget(steps=STEPS, seconds=None):
            try:
                data = scheme_to_json(value, where="fuzz")
            except BridgeError as exc:
                assert str(exc).startswith("fuzz: answer"), exc
                COUNTS["refused"] += 1
            except StepLimitExceeded:
                COUNTS["over budget"] += 1
            else:
                if data is not NO_ANSWER:
                    text = dumps(data)
                    assert _same_json(data, loads(text))  # valid JSON, and the same
                    COUNTS["json"] += 1
        message = describe_condition(value)
        assert message.startswith("uncaught exception: ")
        assert len(message) <= MAX_MESSAGE_CHARS + 40
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


# (no "explain" phase: its tracing makes a big conversion look like a hang)
FUZZ = settings(max_examples=120, deadline=None,
                phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(RECIPES)
def test_any_answer_becomes_json_or_a_placed_error(recipe):
    check_answer(build(recipe))


@FUZZ
@given(st.lists(st.tuples(st.text(max_size=8), RECIPES), max_size=4))
def test_any_object_answer_becomes_json_or_a_placed_error(fields):
    check_answer(_slist([[String(k), build(v)] for k, v in fields]))
