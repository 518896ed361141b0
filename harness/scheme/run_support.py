"""Run-time support for compiled code: control flow, exceptions, records, promises.

Compiled procedures are plain Python functions. A procedure whose body makes a tail call
is compiled as a *body* that returns a *tail-call marker* instead of calling (a plain
tuple: no Scheme value is one), and, unless only tail calls ever reach it, a public
function that runs ``trampoline`` on the markers, so such tail calls take constant stack.
A marker is ``(procedure, arguments)`` for a procedure the compiler did not know (its body
is its ``h_body`` attribute, if it has one) or ``(None, body, argument, ...)`` for a body
the compiler named (compiler.py, known_calls.py).
"""

from __future__ import annotations

import sys
import threading
from functools import lru_cache
from types import CodeType

from harness.scheme.datatypes import (
    NIL,
    Promise,
    RecordType,
    String,
    Values,
    Vector,
    list_to_py,
    split_list,
)
from harness.scheme.errors import (
    DepthLimitExceeded,
    ErrorObject,
    ResourceLimitExceeded,
    SchemeError,
    SizeLimitExceeded,
    error,
    wrong_type,
)
from harness.scheme.limits import MAX_C_NESTING
from harness.scheme.parameters import is_parameter, pop_binding, push_binding
from harness.scheme.primitives.equivalence import is_eqv
from harness.scheme.printer import write_truncated
from harness.scheme.translate import condition_from_native, locate

__all__ = ["RecordType"]

# -- calls without C recursion ----------------------------------------------------------------
# CPython 3.11 runs a Python-to-Python call made with plain positional arguments without
# growing the C stack, but `f(*args)` goes through C. Scheme recursion runs deep (a million
# frames), so every call the runtime makes for Scheme code goes through `call_n`, which
# uses a generated caller with exactly len(args) positional arguments.

_CALLERS: list = []
#: the file name of the generated callers (case-lambda's too): a frame of one only passes a
#: value through, which continuations.py relies on
GENERATED_CALLER = "<harness-caller>"


def _make_caller(n: int):
    args = ", ".join(f"a[{i}]" for i in range(n))
    namespace: dict = {}
    source = f"def call{n}(f, a):\n    return f({args})\n"
    exec(compile(source, GENERATED_CALLER, "exec"), namespace)  # noqa: S102 - fixed template
    return namespace[f"call{n}"]


#: callers are generated up to this many arguments; a call with more goes through C
#: (`f(*args)`): such calls are rare, and generating callers for every arity up to a
#: hostile (apply f huge-list) would cost quadratic time
MAX_GENERATED_ARITY = 64


_c_nesting = threading.local()


def _star_call(f, args):
    """``f(*args)``: a C-level call, so its nesting is counted (see limits.MAX_C_NESTING)."""
    try:
        depth = _c_nesting.depth
    except AttributeError:
        depth = 0
    if depth >= MAX_C_NESTING:
        raise DepthLimitExceeded(f"recursion too deep: calls with more than "
                                 f"{MAX_GENERATED_ARITY} arguments nested more than "
                                 f"{MAX_C_NESTING} deep")
    _c_nesting.depth = depth + 1
    try:
        return f(*args)
    finally:
        _c_nesting.depth = depth


def caller_for(n: int):
    """The generated function ``(f, a) -> f(a[0], ..., a[n-1])``."""
    if n > MAX_GENERATED_ARITY:
        return _star_call
    try:
        return _CALLERS[n]
    except IndexError:
        while len(_CALLERS) <= n:
            _CALLERS.append(_make_caller(len(_CALLERS)))
        return _CALLERS[n]


def call_n(f, args):
    """``f(*args)`` without a C-level call (see above)."""
    return caller_for(len(args))(f, args)


# -- trampolines ----------------------------------------------------------------------------


def trampoline(r):
    """Run tail-call markers until a value comes back."""
    # One bounce per tail call of continuation-passing code. The usual arities are called
    # here directly: a generated caller would be one Python call more per bounce (these
    # calls stay Python-to-Python: no C stack). A procedure's body is read with getattr and
    # a default: a failed attribute read raises inside, which deep in a recursion costs
    # time proportional to the depth (measured: quadratic at 20,000 frames).
    # The loop is `while True` on purpose: CPython 3.11 specialises a function's bytecode
    # after a few function entries or unconditional back jumps, and the conditional back
    # jump of `while r.__class__ is tuple` counts as neither, so a trampoline entered once
    # (cpstak: every bounce in one call) ran unspecialised throughout. `type(r)` is
    # specialised in 3.11 where `r.__class__` is not.
    if type(r) is not tuple:
        return r
    while True:
        proc = r[0]
        if proc is None:  # (None, body, argument, ...): continuation-passing code's bounces
            n = len(r)
            if n == 3:
                r = r[1](r[2])
            elif n == 6:  # three arguments and the continuation
                r = r[1](r[2], r[3], r[4], r[5])
            elif n == 4:
                r = r[1](r[2], r[3])
            elif n == 5:
                r = r[1](r[2], r[3], r[4])
            else:
                r = call_n(r[1], r[2:])
        else:  # (procedure, arguments)
            args = r[1]
            f = getattr(proc, "h_body", None)
            last = f is None  # a procedure without a body returns its value, never a marker
            if last:
                if not callable(proc):
                    raise error(f"attempt to apply non-procedure {_show(proc)}", proc)
                f = proc
            n = len(args)
            if n == 2:
                r = f(args[0], args[1])
            elif n == 1:
                r = f(args[0])
            elif n == 3:
                r = f(args[0], args[1], args[2])
            elif n == 4:
                r = f(args[0], args[1], args[2], args[3])
            else:
                r = (_CALLERS[n] if n < len(_CALLERS) else caller_for(n))(f, args)
            if last:
                return r
        if type(r) is not tuple:
            return r


def apply(proc, *args):
    """(apply proc arg ... list)."""
    if not args:
        raise _apply_without_list()
    items = _spread("apply", args[-1])
    if not callable(proc):
        raise error(f"apply: attempt to apply non-procedure {_show(proc)}", proc)
    return call_n(proc, (*args[:-1], *items))


def apply_marker(proc, *args):
    """``apply`` in tail position: a tail-call marker instead of a call."""
    if not args:
        raise _apply_without_list()
    items = _spread("apply", args[-1])
    return (proc, (*args[:-1], *items))


def _apply_without_list():
    return error("apply: expected a procedure and a list of arguments, got no list")


#: an argument list this short is walked without the cycle check (apply's usual case)
_QUICK_SPREAD = range(16)


def _spread(who: str, lst) -> list:
    """The elements of the proper list ``lst`` (an error for a dotted or circular one)."""
    items = []
    x = lst
    for _ in _QUICK_SPREAD:  # a short list: nothing to check for cycles or to charge
        if x.__class__ is not list:
            if x is NIL:
                return items
            break
        items.append(x[0])
        x = x[1]
    try:
        items, tail = split_list(lst)
    except SchemeError:  # circular
        tail = None
    if tail is not NIL:
        raise wrong_type(who, "a proper list as last argument", lst)
    return items


# -- lists used by quasiquote ----------------------------------------------------------------


def cons(a, d):
    return [a, d]


def append2(a, b):
    """``(append a b)`` for unquote-splicing: ``a`` must be a proper list."""
    if a is NIL:
        return b
    items = _spread("unquote-splicing", a)
    for item in reversed(items):
        b = [item, b]
    return b


def list_to_vector(lst):
    return Vector(list_to_py(lst))


def eq(a, b):
    return a is b


def eqv(a, b):
    return is_eqv(a, b)


# -- multiple values -----------------------------------------------------------------------------


def values(*args):
    return args[0] if len(args) == 1 else Values(args)


def call_with_values(producer, consumer):
    v = producer()
    if v.__class__ is Values:
        return call_n(consumer, v)
    return consumer(v)


# -- dynamic state: exception handlers -----------------------------------------------------------

_state = threading.local()
_GUARD = object()  # a handler-stack entry meaning "a guard with else catches here"


def handler_stack() -> list:
    try:
        return _state.handlers
    except AttributeError:
        _state.handlers = []
        return _state.handlers


def raise_(obj, continuable: bool = False):
    """Scheme ``raise``: call the current handler in the raise's dynamic context."""
    stack = handler_stack()
    if not stack or stack[-1] is _GUARD:
        exc = SchemeError(obj, continuable)
        exc.handled = True
        raise exc
    if stack[-1] is _REGUARD:
        exc = SchemeError(obj, continuable)
        exc.handled = True
        exc.target = target = len(stack) - 1
        if read_raise is not None:
            exc.reentry = read_raise(sys._getframe(1), target, obj, continuable)
        raise exc
    return handle(obj, continuable)


def handle(obj, continuable: bool, call=None):
    """Call the innermost handler on ``obj`` with the outer handlers current (R7RS
    ``raise``), or ``call()`` in its place: a continuation captured in the handler resumes
    through here (continuations.py)."""
    stack = handler_stack()
    n = len(stack)
    handler = stack.pop()
    try:
        result = handler(obj) if call is None else call()
    except SchemeError as exc:
        if exc.handled:
            raise
        result = raise_(_located(exc))  # an error in the handler: raised where it runs
    except NATIVE_ERRORS as exc:
        result = raise_(_located(exc))
    finally:
        del stack[n - 1:]
        stack.append(handler)
    if continuable:
        return result
    # A handler returned from a non-continuable raise: a secondary error in the
    # handler's dynamic environment (R7RS 6.11).
    stack.pop()
    try:
        raise_(ErrorObject("exception handler returned from a non-continuable raise",
                           (obj,)))
    finally:
        stack.append(handler)


def raise_continuable(obj):
    return raise_(obj, True)


def scheme_error_proc(message, *irritants):
    """Scheme ``error``."""
    text = message.s if isinstance(message, String) else _show(message)
    return raise_(ErrorObject(text, irritants))


NATIVE_ERRORS = (TypeError, AttributeError, IndexError, KeyError, ValueError, ZeroDivisionError,
                 NameError, OverflowError, UnicodeError, AssertionError, LookupError,
                 ArithmeticError)


def _as_payload(exc: BaseException):
    if isinstance(exc, SchemeError):
        return exc.payload
    if isinstance(exc, RecursionError):
        raise DepthLimitExceeded("recursion too deep") from None
    if isinstance(exc, MemoryError):
        raise SizeLimitExceeded("out of memory") from None
    return condition_from_native(exc)


def with_exception_handler(handler, thunk):
    if not callable(handler):
        raise wrong_type("with-exception-handler", "a procedure", handler)
    stack = handler_stack()
    depth = len(stack)
    stack.append(handler)
    try:
        return thunk()
    except SchemeError as exc:
        if exc.handled:
            raise
        payload = exc.payload
    except (RecursionError, MemoryError):
        raise
    except NATIVE_ERRORS as exc:
        payload = _as_payload(exc)
    finally:
        del stack[depth:]
    # An error signalled by a primitive or by Python: the handler sees it after unwinding.
    handler(payload)
    raise_(ErrorObject("exception handler returned from a non-continuable raise", (payload,)))


def guard(body, handler):
    """The ``guard`` form with an else clause: ``handler`` (the clauses) gets the condition
    after unwinding."""
    stack = handler_stack()
    depth = len(stack)
    stack.append(_GUARD)
    try:
        return body()
    except SchemeError as exc:
        payload = exc.payload
        if isinstance(payload, ErrorObject) and payload.where is None:
            payload.where = exc.where or locate(exc)
    except (RecursionError, MemoryError) as exc:
        _as_payload(exc)
        raise
    except NATIVE_ERRORS as exc:
        payload = _as_payload(exc)
    finally:
        del stack[depth:]
    return handler(payload)


#: what the clauses of a guard without an else clause give when none applies
NO_CLAUSE = object()
#: a handler-stack entry meaning "a guard without else catches here". A condition raised to
#: it carries the entry's index (``target``), so a guard raising again (its entry popped,
#: run_support.handle) lets pass what is raised to those outside it.
_REGUARD = object()

#: set by continuations.py: ``read_raise(frame, target, obj, continuable)`` reads the frames
#: from a raise (``frame`` is its caller's) down to the guard whose entry is at ``target``
#: and returns a thunk that re-enters them and raises ``obj`` again there, or None where
#: they cannot be resumed.
read_raise = None
#: set by continuations.py: ``read_error(traceback, target, obj)``: as read_raise, for an
#: error a primitive signalled (non-continuable, so nothing past the raise ever runs
#: again): a thunk that re-enters the dynamic environment the traceback's frames had (the
#: dynamic-wind extents, parameterize bindings) and raises ``obj`` again there. It reads
#: the frames only when called.
read_error = None


def guard_reraising(body, handler):
    """The ``guard`` form without an else clause: as ``guard``, but when no clause applies
    (``handler`` returns NO_CLAUSE) the condition is raised again with
    ``raise-continuable`` in the dynamic environment of the ``raise`` (its dynamic-wind
    before thunks run again): an outer handler's value is the value of that raise. A
    condition from a primitive, or a ``raise`` inside a procedure that cannot be resumed,
    is not continuable: only its dynamic environment is re-entered (read_error). A
    ``raise-continuable`` inside such a procedure is raised again here instead."""
    stack = handler_stack()
    depth = len(stack)
    stack.append(_REGUARD)
    try:
        return body()
    except SchemeError as exc:
        if exc.handled and exc.target != depth:
            raise  # raised to those outside, while this guard raises again
        payload, continuable, reentry = _located(exc), exc.continuable, exc.reentry
        if reentry is None and not continuable and read_error is not None:
            # a primitive's error, or a raise whose frames cannot all be resumed
            reentry = read_error(exc.__traceback__, depth, payload)
    except (RecursionError, MemoryError) as exc:
        _as_payload(exc)
        raise
    except NATIVE_ERRORS as exc:
        payload, continuable, reentry = _located(exc), False, None
        if read_error is not None:
            reentry = read_error(exc.__traceback__, depth, payload)
    finally:
        del stack[depth:]
    result = handler(payload)
    if result is not NO_CLAUSE:
        return result
    return reraise(handler, payload, continuable, reentry)


def reraise(handler, payload, continuable: bool, reentry):
    """A guard without an else clause whose clauses did not apply to ``payload``."""
    if reentry is None:
        return raise_(payload, continuable)
    return guard_reraising(reentry, handler)


def _located(exc: BaseException):
    """The condition ``exc`` carries (a primitive's error made one), with its source
    position."""
    payload = _as_payload(exc)
    if isinstance(payload, ErrorObject) and payload.where is None:
        payload.where = getattr(exc, "where", None) or locate(exc)
    return payload


def assertion_failed(text):
    raise error(f"assertion failed: {text.s}")


# -- dynamic-wind -----------------------------------------------------------------------------------
# The dynamic extents a thread is in form a chain of entries (before, after, outer entry):
# a continuation remembers the chain it was captured in, and re-entering it runs the
# after thunks out to the common entry and the before thunks back in (continuations.py).


def winds():
    """The innermost dynamic-wind entry of this thread (None outside every dynamic-wind)."""
    return getattr(_state, "winds", None)


def set_winds(entry) -> None:
    _state.winds = entry


class ControlTransfer(BaseException):
    """A jump to a continuation (continuations.py) unwinding the Python stack."""


def _after_a_limit(after) -> None:
    """Run an after thunk while a resource limit unwinds: whether it returns, escapes
    through a continuation or fails, the limit error goes on (another limit wins)."""
    try:
        after()
    except (Exception, ControlTransfer):  # noqa: BLE001 - the limit error wins
        return


def dynamic_wind(before, thunk, after):
    before()
    entry = (before, after, winds())
    return wound(entry, thunk)


def wound(entry, thunk):
    """Run ``thunk`` inside the extent ``entry`` (its before thunk has run)."""
    _state.winds = entry
    try:
        result = thunk()
    except BaseException as exc:
        _state.winds = entry[2]
        # emergency-exit skips the after thunks; a re-entered continuation ran them already
        if not getattr(exc, "emergency", False) and not getattr(exc, "rewound", False):
            if isinstance(exc, ResourceLimitExceeded):
                _after_a_limit(entry[1])
            else:
                entry[1]()
        raise
    _state.winds = entry[2]
    entry[1]()
    return result


# -- parameterize ---------------------------------------------------------------------------------


def parameterize(thunk, *pairs):
    """``thunk()`` with each parameter of ``pairs`` (parameter, value, ...) bound to its
    value passed through its converter. The converters run first, all of them, in the
    dynamic environment of the parameterize."""
    params = pairs[0::2]
    vals = pairs[1::2]
    for p in params:
        if not is_parameter(p):
            raise wrong_type("parameterize", "a parameter object", p)
        if p.param.converter is not None:
            return converting(thunk, params, vals, [])
    return bound(thunk, params, vals)


def converting(thunk, params: tuple, vals: tuple, done: list):
    """parameterize's converters on ``vals[len(done):]``, ``done`` holding the values
    converted so far; then ``thunk`` with the bindings. A continuation captured in a
    converter resumes it (continuations.py)."""
    for p in params[len(done):]:
        convert = p.param.converter
        v = vals[len(done)]
        done.append(v if convert is None else convert(v))
    return bound(thunk, params, done)


def bound(thunk, params: tuple, vals):
    """``thunk()`` with each of ``params`` bound to its value of ``vals`` (converted)."""
    for p, v in zip(params, vals):
        push_binding(p, v, convert=False)
    try:
        return thunk()
    except BaseException:
        # the values the parameters had when an error left: a guard that raises a
        # primitive's error again does so with them (continuations.read_error)
        raised_with = [p() for p in params]  # noqa: F841 - read from the traceback's frame
        raise
    finally:
        for p in reversed(params):
            pop_binding(p)


# -- case-lambda ------------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def case_lambda_maker(arities: tuple[tuple[int, bool], ...]):
    """The function that makes a ``case-lambda`` procedure from its clauses' procedures,
    for clauses taking ``arities`` (``(required, has_rest)`` each, in order): the made
    procedure calls the first clause that accepts the arguments given.

    The compiler asks for it once per form (forms.py), so evaluating the form only closes
    over the clauses: generating and compiling the dispatcher on every evaluation made a
    ``case-lambda`` evaluated in a loop ~80x dearer than a ``lambda`` (issue 28). The
    dispatcher makes a direct positional call per fixed arity, so a call through it costs
    one Python frame (deep recursion through case-lambda stays cheap)."""
    clauses = ", ".join(f"c{i}" for i in range(len(arities)))
    lines = [f"def make({clauses}):", "    def dispatch(*args):", "        n = len(args)"]
    for i, (required, rest) in enumerate(arities):
        if rest:
            lines.append(f"        if n >= {required}:\n            return call_n(c{i}, args)")
        else:
            call = ", ".join(f"args[{k}]" for k in range(required))
            lines.append(f"        if n == {required}:\n            return c{i}({call})")
    lines += ["        return fail(n)", "    return dispatch"]
    namespace = {"call_n": call_n, "fail": _case_lambda_failure}
    # generated from clause arities only
    exec(compile("\n".join(lines), GENERATED_CALLER, "exec"), namespace)  # noqa: S102
    return namespace["make"]


def _case_lambda_failure(n: int):
    raise error(f"case-lambda: no clause accepts {n} argument{'s' if n != 1 else ''}")


# -- promises ---------------------------------------------------------------------------------------


def make_promise(value):
    if isinstance(value, Promise):
        return value
    return Promise(True, value)


def make_delay_force(thunk):
    return Promise(False, thunk)


def make_delay(thunk):
    # R7RS 7.3's (delay-force (make-promise expression)). A closure, not an object with a
    # __call__: calling that from Python goes through C and a deep chain of forces would
    # grow the C stack.
    def delayed():
        return Promise(True, thunk())
    return Promise(False, delayed)


#: the code of a delay's body (continuations.py resumes a frame of it)
DELAYED_CODE = next(c for c in make_delay.__code__.co_consts if c.__class__ is CodeType)


def force(promise):
    """Iterative forcing of delay-force chains (R7RS 4.2.5)."""
    if not isinstance(promise, Promise):
        return promise
    while not promise.box[0]:
        # the only call in this frame that runs Scheme code (continuations.py resumes it)
        settle(promise, promise.box[1]())
    return promise.box[1]


def settle(promise, new) -> None:
    """``promise``'s body returned ``new`` (a promise): unless forcing it again from inside
    its body settled it, it shares ``new``'s state from now on."""
    box = promise.box
    if box[0]:
        return
    if not isinstance(new, Promise):
        raise wrong_type("force", "a promise from the delay-force body", new)
    box[0], box[1] = new.box[0], new.box[1]
    new.box = box


# -- records ----------------------------------------------------------------------------------------


def record_constructor(rtd: RecordType, field_indices: list[int]):
    cls = rtd.instance_class
    slots = [f"f{i}" for i in field_indices]
    others = [f"f{i}" for i in range(len(rtd.fields)) if i not in field_indices]
    n = len(slots)
    new = object.__new__

    def construct(*args):
        if len(args) != n:
            raise error(f"make-{rtd.name}: expected {n} argument{'s' if n != 1 else ''}, "
                        f"got {len(args)}")
        obj = new(cls)
        for slot, value in zip(slots, args):
            setattr(obj, slot, value)
        for slot in others:
            setattr(obj, slot, False)
        return obj

    construct.__qualname__ = f"make-{rtd.name}"
    return construct


def record_predicate(rtd: RecordType):
    cls = rtd.instance_class

    def predicate(x):
        return x.__class__ is cls

    predicate.__qualname__ = f"{rtd.name}?"
    return predicate


def record_accessor(rtd: RecordType, index: int):
    cls = rtd.instance_class
    slot = f"f{index}"
    who = f"{rtd.name}-{rtd.fields[index]}"

    def access(x):
        if x.__class__ is not cls:
            raise wrong_type(who, f"a {rtd.name} record", x)
        return getattr(x, slot)

    access.__qualname__ = who
    return access


def record_modifier(rtd: RecordType, index: int):
    cls = rtd.instance_class
    slot = f"f{index}"
    who = f"set-{rtd.name}-{rtd.fields[index]}!"

    def modify(x, value):
        if x.__class__ is not cls:
            raise wrong_type(who, f"a {rtd.name} record", x)
        setattr(x, slot, value)

    modify.__qualname__ = who
    return modify


def _show(x) -> str:
    return write_truncated(x)
