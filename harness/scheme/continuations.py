"""Re-entrant continuations: ``call/cc``, the prompts that re-enter them, and re-winding.

Compiled Scheme runs on Python's own stack, which cannot be copied. So:

* **Escaping** (calling ``k`` while its ``call/cc`` is still running) raises
  ``ContinuationInvoked``, which unwinds to that ``call/cc``: the cost of an exception.
* **Capture is lazy.** When a ``call/cc`` returns (or an error leaves it) and ``k`` is
  still referenced from somewhere (its reference count says so), the frames waiting for
  that ``call/cc`` are read as they are at that moment, which is exactly the state they
  were in when ``call/cc`` was called: each frame of compiled code is waiting in a
  numbered call site (sites.py) with its locals, and the few higher-order primitives that
  call procedures (map, for-each, dynamic-wind, guard, …) have a record here. Code whose
  continuations are never kept pays one reference count per ``call/cc`` and nothing else.
* **Re-entry** (calling ``k`` after its ``call/cc`` returned) runs the after thunks of the
  dynamic-winds being left and the before thunks of those being entered, then raises
  ``ContinuationReentered`` to the nearest ``prompt`` (a top-level form, a hook or tool
  call), which resumes the recorded frames innermost last: a compiled frame resumes
  through a procedure compiled, once per site, from the rest of its body (resume.py).

A continuation captured inside a procedure harness cannot resume (a primitive without a
record here, such as the procedures of SRFI 128's pair comparators, or a call from the
host) can still escape; re-entering it is an error that names what is in the way.
"""

from __future__ import annotations

import os
import sys
import threading
from functools import partial
from types import CellType, CodeType, FrameType, FunctionType

from harness.scheme import run_support as rt
from harness.scheme.compiler import BODY_DOC
from harness.scheme.datatypes import DEFAULT, Promise, String, Values, is_list
from harness.scheme.errors import ErrorObject, SchemeError, error, wrong_type
from harness.scheme.limits import CHUNK, charge
from harness.scheme.parameters import pop_binding, push_binding
from harness.scheme.primitives import (
    hashtables,
    hashtables_srfi125,
    lists,
    ports,
    sorting,
    strings,
    vectors,
)
from harness.scheme.sites import CALL, is_compiled, site_of


class ContinuationInvoked(rt.ControlTransfer):
    """Unwinds the Python stack to the running ``call/cc`` of ``continuation``."""

    def __init__(self, continuation: Continuation, vals: tuple) -> None:
        super().__init__()
        self.continuation = continuation
        self.vals = vals


class ContinuationReentered(rt.ControlTransfer):
    """Unwinds to the nearest prompt, which resumes ``continuation`` with ``vals``."""

    rewound = True  # the dynamic-wind after thunks have run already (run_support.wound)

    def __init__(self, continuation: Continuation, vals: tuple) -> None:
        super().__init__("a continuation was re-entered outside of any Scheme evaluation")
        self.continuation = continuation
        self.vals = vals


class Continuation:
    """The procedure ``call/cc`` passes. ``frames`` (innermost first) once captured;
    ``blocker`` says why it cannot be re-entered, if it cannot."""

    __slots__ = ("blocker", "frames", "live", "owner", "winds")

    def __init__(self) -> None:
        self.live = True  # its call/cc is running: calling it escapes
        self.owner = threading.get_ident()
        self.frames: list | None = None
        self.blocker = "it was never captured"
        self.winds = rt.winds()

    def __call__(self, *vals):
        if threading.get_ident() != self.owner:
            raise error("continuation called from another thread than the one that "
                        "captured it")
        if self.live:
            raise ContinuationInvoked(self, vals)
        if self.frames is None:
            raise error(f"this continuation cannot be re-entered: {self.blocker}")
        charge(len(self.frames))
        _rewind(self.winds)
        raise ContinuationReentered(self, vals)

    def capture(self, frame: FrameType | None) -> None:
        """Record the frames from ``frame`` down to the nearest prompt."""
        records, self.blocker = read_frames(frame)
        if records is not None:
            self.frames = records

    def resume(self, vals: tuple):
        """Run the recorded frames on the current stack with ``vals`` as the value of the
        ``call/cc`` (called by a prompt)."""
        value = vals[0] if len(vals) == 1 else Values(vals)
        return _resume_from(self.frames, len(self.frames) - 1, value)


def call_cc(proc):
    """``call-with-current-continuation``."""
    k = Continuation()
    try:
        result = proc(k)
    except (ContinuationInvoked, ContinuationReentered) as exc:
        exc.with_traceback(None)  # its frames would keep k referenced
        if exc.continuation is not k or exc.__class__ is ContinuationReentered:
            k.live = False
            if sys.getrefcount(k) > _UNREFERENCED:
                k.capture(sys._getframe(1))
            raise
        vals = exc.vals
        del exc
        result = rt.values(*vals)
    except SchemeError:  # a condition some guard may catch: k may be kept and re-entered
        k.live = False
        k.capture(sys._getframe(1))
        raise
    except BaseException:  # a resource limit or an exit: nothing runs after it
        k.live = False
        raise
    k.live = False
    if sys.getrefcount(k) > _UNREFERENCED:
        k.capture(sys._getframe(1))
    return result


#: inspect.CO_VARARGS (importing inspect costs ~3 ms of every start-up)
CO_VARARGS = 0x04

# sys.getrefcount(k) in call_cc when nothing else holds k: the local and the argument
_UNREFERENCED = 2


def prompt(fn, *args):
    """``fn(*args)`` as the bottom of the continuations it captures: re-entering one of
    them (from here or from a later prompt) unwinds to here and resumes its frames."""
    try:
        return fn(*args)
    except ContinuationReentered as exc:
        pending = exc.with_traceback(None)
    while True:
        try:
            return pending.continuation.resume(pending.vals)
        except ContinuationReentered as exc:
            pending = exc.with_traceback(None)


_PROMPT_CODE: CodeType = prompt.__code__
_GUARD_CODE: CodeType = rt.guard_reraising.__code__
_WOUND_CODE: CodeType = rt.wound.__code__
_PARAMETERIZE_CODE: CodeType = rt.bound.__code__
_OUTPUT_TO_STRING_CODE: CodeType = ports.with_output_to_string.__code__


def read_frames(frame: FrameType | None, guard: int | None = None) -> tuple[list | None, str]:
    """The records of the frames from ``frame`` down to the nearest prompt (given the
    handler-stack index of a guard's entry, down to that guard: the innermost guard frame
    with that depth), innermost first, charged to the budget; else None and why they
    cannot be resumed."""
    records: list = []
    charged = 0
    while frame is not None:
        code = frame.f_code
        if code is _PROMPT_CODE:
            if guard is not None:
                return None, "it was raised outside of its guard's evaluation"
            charge(len(records) - charged)  # reading the frames is work the program asked for
            return records, ""
        if code in _PASS_THROUGH or code.co_filename == rt.GENERATED_CALLER:
            frame = frame.f_back
            continue
        if code is _GUARD_CODE and guard is not None and frame.f_locals["depth"] == guard:
            charge(len(records) - charged)
            return records, ""
        hit = site_of(frame)
        if hit is not None:
            unit, index = hit
            if unit.sites[index].kind is CALL:
                records.append(SchemeFrame(unit, index, dict(frame.f_locals), code))
                if len(records) - charged >= CHUNK:  # a deep stack: its deadline and memory
                    charge(CHUNK)  # are checked on the way
                    charged += CHUNK
            else:
                _add(records, _TRAMPOLINE)
        elif is_compiled(code):
            return None, "it was captured where compiled code cannot resume"
        else:
            record = _RECORDS.get(code, _unknown)(frame)
            if record is None:
                return None, f"it was captured inside {_describe(frame)}"
            if record is not _PASS:
                _add(records, record)
        frame = frame.f_back
    return None, "it was captured outside of any Scheme evaluation"


class _Reentry:
    """A raise that a guard without an else clause caught, as its frames were (down to the
    guard): calling it re-enters them (the dynamic-wind before thunks between run again)
    and raises the condition again there, to the handlers outside the guard."""

    __slots__ = ("records", "winds")

    def __init__(self, records: list, winds) -> None:
        self.records, self.winds = records, winds

    def __call__(self):
        records = self.records
        charge(len(records))
        _rewind(self.winds)
        return _resume_from(records, len(records) - 1, None)


class _Reraise:
    """The innermost record of a _Reentry: the raise, now handled by the guard as R7RS's
    handler does when no clause applies: raise-continuable to the handlers outside."""

    __slots__ = ("continuable", "obj")

    def __init__(self, obj, continuable: bool) -> None:
        self.obj, self.continuable = obj, continuable

    def resume(self, thunk):
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return rt.handle(self.obj, self.continuable, self.again)

    def again(self):
        return rt.raise_(self.obj, True)


def _read_raise(frame: FrameType, guard: int, obj, continuable: bool) -> _Reentry | None:
    records, _ = read_frames(frame, guard)
    if records is None:
        return None
    return _Reentry([_Reraise(obj, continuable), *records], rt.winds())


rt.read_raise = _read_raise


class _ErrorReentry:
    """An error a primitive signalled, that a guard without an else clause caught, as its
    traceback left it: calling it re-enters the dynamic environment the error was raised
    in (the dynamic-wind extents between, their before thunks run again, and the
    parameterize bindings as they were) and raises the condition again there, to the
    handlers outside the guard. The raise is not continuable, so no frame past it ever runs
    again: only the frames that keep dynamic state are rebuilt."""

    __slots__ = ("guard", "obj", "reentry", "tb", "winds")

    def __init__(self, tb, guard: int, obj) -> None:
        self.tb, self.guard, self.obj = tb, guard, obj
        self.winds = rt.winds()  # the guard's: where the unwinding left them
        self.reentry = None

    def __call__(self):
        if self.reentry is None:
            self.reentry = self._read()
            self.tb = None  # the frames are read: let them go
        return self.reentry()

    def _read(self):
        tb = self.tb
        while tb.tb_next is not None:
            tb = tb.tb_next
        records: list = [_Reraise(self.obj, False)]
        winds = None
        frame, walked = tb.tb_frame, 0
        while frame is not None:
            code = frame.f_code
            walked += 1
            if walked == CHUNK:  # a deep stack: its deadline is checked on the way
                charge(CHUNK)
                walked = 0
            if code is _GUARD_CODE and frame.f_locals["depth"] == self.guard:
                break
            if code is _WOUND_CODE:
                entry = frame.f_locals["entry"]
                winds = winds or entry
                records.append(_Around(rt.wound, 1, entry))
            elif code is _PARAMETERIZE_CODE:
                v = frame.f_locals
                records.append(_Parameterize(list(zip(v["params"], v["raised_with"]))))
            elif code is _OUTPUT_TO_STRING_CODE:
                records.append(_OutputTo(frame.f_locals["port"]))
            frame = frame.f_back
        else:  # not below its guard (cannot happen): raised again where the guard is
            return lambda: rt.raise_(self.obj)
        charge(walked)  # reading the frames is work the program asked for
        return _Reentry(records, winds or self.winds)


def _read_error(tb, guard: int, obj) -> _ErrorReentry:
    return _ErrorReentry(tb, guard, obj)


rt.read_error = _read_error


def _rewind(target) -> None:
    """Leave the current dynamic extents for those of ``target`` (entry chains of
    run_support.wound): after thunks out to the common entry, then before thunks in."""
    inside = set()
    entry = target
    while entry is not None:
        inside.add(id(entry))
        entry = entry[2]
    current = rt.winds()
    while current is not None and id(current) not in inside:
        rt.set_winds(current[2])
        current[1]()
        current = rt.winds()
    entering = []
    entry = target
    while entry is not current:
        entering.append(entry)
        entry = entry[2]
    for entry in reversed(entering):
        entry[0]()
        rt.set_winds(entry)


def _add(records: list, record) -> None:
    # A trampoline waiting for a trampoline adds nothing (the inner one returns a value,
    # never a tail call): without this each re-entry would add one to the next capture.
    if record is not _TRAMPOLINE or not records or records[-1] is not _TRAMPOLINE:
        records.append(record)


def _resume_from(frames: list, i: int, value):
    if i < 0:
        return value
    return frames[i].resume(_inner(frames, i - 1, value))


def _inner(frames: list, i: int, value):
    """The thunk a resumed frame calls for the value of the call it was waiting in: a
    closure, not an object with ``__call__`` (CPython 3.12 counts every call through a
    type's call slot against its fixed C recursion limit, 1,500 deep: a re-entry of a
    deep recursion would end there)."""
    def thunk():
        return _resume_from(frames, i, value)
    return thunk


# -- frame records: each resumes the rest of one frame, given the thunk of its waiting call --

class SchemeFrame:
    """A frame of compiled code (``code``) waiting at ``site`` of ``unit``, with its
    locals."""

    __slots__ = ("code", "saved", "site", "unit")

    def __init__(self, unit, site: int, saved: dict, code: CodeType) -> None:
        self.unit, self.site, self.saved, self.code = unit, site, saved, code

    def resume(self, thunk):
        from harness.scheme.resume import resume_procedure
        fn, names = resume_procedure(self.unit, self.site)
        saved = self.saved
        args = [saved[n] if n in saved else self._procedure() for n in names]
        value = thunk()  # once bound, this frame only passes the procedure's value on
        return rt.call_n(fn, (value, *args))

    def _procedure(self):
        """The procedure this frame runs, for a loop that calls itself by name (its name
        is no local: the calls became a loop). Same code, cells of the same values."""
        code = self.code
        cells = tuple(CellType(self.saved[name]) for name in code.co_freevars)
        fn = FunctionType(code, self.unit.env.table, code.co_name, None, cells)
        if code.co_consts and code.co_consts[0] == BODY_DOC:
            return _Procedure(fn)
        return fn


class _Procedure:
    """A procedure of a body that returns tail-call markers (as the compiler's wrapper)."""

    __slots__ = ("h_body",)

    def __init__(self, body) -> None:
        self.h_body = body

    def __call__(self, *args):
        r = rt.call_n(self.h_body, args)
        return rt.trampoline(r)


class _Trampoline:
    """A trampoline (or a procedure's wrapper) waiting for the body it bounced to."""

    __slots__ = ()

    def resume(self, thunk):
        value = thunk()
        return rt.trampoline(value)


class _Around:
    """A primitive frame that keeps some dynamic state around the call it waits in (a
    guard, a handler, a dynamic-wind extent, call-with-values' producer): resuming calls
    the primitive again with the thunk in the place of its body."""

    __slots__ = ("args", "fn", "place")

    def __init__(self, fn, place: int, *args) -> None:
        self.fn, self.place, self.args = fn, place, args

    def resume(self, thunk):
        args = list(self.args)
        args.insert(self.place, thunk)
        return rt.call_n(self.fn, args)


class _HandlerReturned:
    """A handler of an error that ran after unwinding: returning from it is an error."""

    __slots__ = ("payload",)

    def __init__(self, payload) -> None:
        self.payload = payload

    def resume(self, thunk):
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return rt.raise_(ErrorObject("exception handler returned from a non-continuable raise",
                                     (self.payload,)))


class _Parameterize:
    __slots__ = ("bindings",)

    def __init__(self, bindings: list) -> None:
        self.bindings = bindings  # (parameter, its value then)

    def resume(self, thunk):
        pushed = []
        try:
            for p, v in self.bindings:
                push_binding(p, v, convert=False)
                pushed.append(p)
            return thunk()
        finally:
            for p in reversed(pushed):
                pop_binding(p)


class _Map:
    """map_then (lists.py) waiting for the call on element ``len(done)`` of ``items``."""

    __slots__ = ("done", "f", "finish", "items", "rows")

    def __init__(self, f, items: list, done: list, rows: bool, finish) -> None:
        self.f, self.items, self.done, self.rows, self.finish = f, items, done, rows, finish

    def resume(self, thunk):
        if len(self.done) > CHUNK:
            charge(len(self.done))  # copying the results so far is work like walking them
        out = [*self.done, thunk()]  # a copy: each re-entry builds its own list
        f = self.f
        for x in self.items[len(out):]:
            out.append(rt.call_n(f, x) if self.rows else f(x))
        return self.finish(out)


class _Fold:
    """fold_then (lists.py) waiting for the call on ``items[i]``."""

    __slots__ = ("f", "i", "items", "rows")

    def __init__(self, f, items: list, i: int, rows: bool) -> None:
        self.f, self.items, self.i, self.rows = f, items, i, rows

    def resume(self, thunk):
        if len(self.items) > CHUNK:
            charge(len(self.items))  # the copy of the items left is work like walking them
        value = thunk()
        return lists.fold_then(self.f, self.items[self.i + 1:], value, self.rows)


class _Select:
    """select_then (lists.py) waiting for the call on ``items[i]``, with ``picked`` (the
    lists so far: one, or the two of a partition)."""

    __slots__ = ("finish", "first", "i", "items", "keep", "picked", "pred")

    def __init__(self, pred, items: list, i: int, keep, picked: tuple, finish, first) -> None:
        self.pred, self.items, self.i, self.keep = pred, items, i, keep
        self.picked, self.finish, self.first = picked, finish, first

    def resume(self, thunk):
        if len(self.items) > CHUNK:
            charge(len(self.items))  # the copies are work like walking the items
        value = thunk()
        x, keep, finish = self.items[self.i], self.keep, self.finish
        picked = [list(p) for p in self.picked]  # each re-entry builds its own lists
        if keep is None:
            picked[value is False].append(x)
        elif (value is not False) is keep:
            picked[0].append(x)
        return lists.select_then(self.pred, self.items[self.i + 1:], keep,
                                 lambda *rest: finish(*(a + b for a, b in zip(picked, rest))),
                                 self.first)


class _Waiting:
    """A resumable primitive's loop waiting in a call: ``state`` is the tuple of its
    variables at that call, which ``resume`` unpacks (each subclass says its layout)."""

    __slots__ = ("state",)

    def __init__(self, state: tuple) -> None:
        self.state = state


class _Sort(_Waiting):
    """sort_then (sorting.py) waiting for a comparison, its state as it was then."""

    __slots__ = ()  # state: less, items, finish, runs, i, j, down, merged, k, out, a, b

    def resume(self, thunk):
        less, items, finish, runs, i, j, down, merged, k, out, a, b = self.state
        if len(items) > CHUNK:
            charge(len(items))  # the copies are work like walking the items
        value = thunk()
        return sorting.sort_then(less, items, finish, list(runs), i, j, down,
                                 None if merged is None else list(merged), k,
                                 None if out is None else list(out), a, b, value)


class _ForEach:
    """for-each (over one list) waiting for the call on the car of ``cell``."""

    __slots__ = ("cell", "f")

    def __init__(self, f, cell) -> None:
        self.f, self.cell = f, cell

    def resume(self, thunk):
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return lists.for_each(self.f, self.cell[1])


class _Search:
    """member or assoc with a compare procedure, waiting for its call on ``cell``'s
    element: ``found(cell)`` if it says yes, else the search goes on after ``cell``."""

    __slots__ = ("args", "cell", "found", "search")

    def __init__(self, search, args: tuple, cell, found) -> None:
        self.search, self.args, self.cell, self.found = search, args, cell, found

    def resume(self, thunk):
        value = thunk()
        if value is not False:
            return self.found(self.cell)
        who, key, same = self.args
        return self.search(who, key, self.cell[1], same)


class _Then:
    """A primitive that applies ``finish`` to the value of the call it waits in."""

    __slots__ = ("finish",)

    def __init__(self, finish) -> None:
        self.finish = finish

    def resume(self, thunk):
        value = thunk()
        return self.finish(value)


class _Before:
    """dynamic-wind waiting for its before thunk: then the extent is entered."""

    __slots__ = ("after", "before", "thunk")

    def __init__(self, before, thunk, after) -> None:
        self.before, self.thunk, self.after = before, thunk, after

    def resume(self, thunk):
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return rt.wound((self.before, self.after, rt.winds()), self.thunk)


class _Raised:
    """A Python exception (a Scheme condition) on its way out through an after thunk:
    once the thunk is done, it goes on."""

    __slots__ = ("exc",)

    def __init__(self, exc) -> None:
        self.exc = exc

    def resume(self, thunk):
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        raise self.exc


class _Force:
    """force waiting for the body of ``promise``."""

    __slots__ = ("promise",)

    def __init__(self, promise) -> None:
        self.promise = promise

    def resume(self, thunk):
        value = thunk()
        rt.settle(self.promise, value)
        return rt.force(self.promise)


class _OutputTo:
    """with-output-to-string waiting for its thunk: output still goes to ``port``."""

    __slots__ = ("port",)

    def __init__(self, port) -> None:
        self.port = port

    def resume(self, thunk):
        push_binding(ports.current_output_port, self.port, convert=False)
        try:
            thunk()
        finally:
            pop_binding(ports.current_output_port)
        return String(self.port.getvalue())


class _Converting:
    """parameterize waiting for the converter of ``params[len(done)]``."""

    __slots__ = ("done", "params", "thunk", "vals")

    def __init__(self, thunk, params: tuple, vals: tuple, done: list) -> None:
        self.thunk, self.params, self.vals, self.done = thunk, params, vals, done

    def resume(self, thunk):
        value = thunk()
        return rt.converting(self.thunk, self.params, self.vals, [*self.done, value])


class _Merge(_Waiting):
    """merge_then (sorting.py) waiting for the comparison of ``ys[j]`` with ``xs[i]``."""

    __slots__ = ()  # state: less, xs, ys, finish, out, i, j

    def resume(self, thunk):
        less, xs, ys, finish, out, i, j = self.state
        if len(out) > CHUNK:
            charge(len(out))  # the copy is work like merging them
        value = thunk()
        out = list(out)
        if value is not False:
            out.append(ys[j])
            j += 1
        else:
            out.append(xs[i])
            i += 1
        return sorting.merge_then(less, xs, ys, finish, out, i, j)


class _Unfold(_Waiting):
    """unfold_then (lists.py) waiting for the call ``at`` (its numbering) on ``seed``."""

    __slots__ = ()  # state: stop, mapper, successor, seed, items, tail_gen, at

    def resume(self, thunk):
        stop, mapper, successor, seed, items, tail_gen, at = self.state
        if len(items) > CHUNK:
            charge(len(items))  # the copy is work like building them
        value = thunk()
        items = list(items)  # each re-entry builds its own list
        if at == 3:
            return lists.from_items(items, value)
        if at == 0:
            at = 3 if value is not False else 1
        elif at == 1:
            items.append(value)
            at = 2
        else:
            seed, at = value, 0
        return lists.unfold_then(stop, mapper, successor, seed, items, tail_gen, at)


class _UnfoldRight(_Waiting):
    """unfold_right_then (lists.py) waiting for the call ``at`` on ``seed``."""

    __slots__ = ()  # state: stop, mapper, successor, seed, result, at

    def resume(self, thunk):
        stop, mapper, successor, seed, result, at = self.state
        value = thunk()
        if at == 0:
            if value is not False:
                return result
            at = 1
        elif at == 1:
            result, at = [value, result], 2
        else:
            seed, at = value, 0
        return lists.unfold_right_then(stop, mapper, successor, seed, result, at)


class _MapEntries(_Waiting):
    """map_entries (hashtables.py) waiting for its procedure on ``entries[i]``."""

    __slots__ = ()  # state: proc, entries, finish, out

    def resume(self, thunk):
        proc, entries, finish, out = self.state
        if len(out) > CHUNK:
            charge(len(out))  # the copy is work like walking them
        value = thunk()
        out = [*out, value]  # each re-entry builds its own results
        return hashtables.map_entries(proc, entries, finish, out)


class _EachEntry(_Waiting):
    """each_entry (hashtables.py) waiting for its procedure on ``entries[i]``."""

    __slots__ = ()  # state: proc, entries, i

    def resume(self, thunk):
        proc, entries, i = self.state
        if len(entries) > CHUNK:
            charge(len(entries))  # the copy of the entries left is work like walking them
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return hashtables.each_entry(proc, entries[i + 1:])


class _FoldEntries(_Waiting):
    """fold_entries (hashtables.py) waiting for its procedure on ``entries[i]``."""

    __slots__ = ()  # state: kons, entries, i

    def resume(self, thunk):
        kons, entries, i = self.state
        if len(entries) > CHUNK:
            charge(len(entries))  # the copy of the entries left is work like walking them
        value = thunk()
        return hashtables.fold_entries(kons, entries[i + 1:], value)


class _SortedCheck(_Waiting):
    """sorting.sorted_then waiting for ``less`` on ``items[i - 1]`` and the one before."""

    __slots__ = ()  # state: less, items, i

    def resume(self, thunk):
        less, items, i = self.state
        value = thunk()
        if value is not False:
            return False
        return sorting.sorted_then(less, items, i)


class _NeighborDups(_Waiting):
    """sorting.without_neighbor_dups waiting for ``same`` on ``items[i - 1]``."""

    __slots__ = ()  # state: same, items, finish, kept, i

    def resume(self, thunk):
        same, items, finish, kept, i = self.state
        if len(kept) > CHUNK:
            charge(len(kept))  # the copy is work like walking them
        value = thunk()
        kept = list(kept)  # each re-entry builds its own list
        if value is False:
            kept.append(items[i - 1])
        return sorting.without_neighbor_dups(same, items, finish, kept, i)


class _TableUnfold(_Waiting):
    """hashtables_srfi125.unfold_into waiting in the call ``at`` (its numbering) on
    ``seed``. A re-entry goes on filling the same table (as a loop of hash-table-set!
    would, and as the frames of a store it waits in do)."""

    __slots__ = ()  # state: table, stop, mapper, successor, seed, at

    def resume(self, thunk):
        table, stop, mapper, successor, seed, at = self.state
        value = thunk()
        pair = None
        if at == 0:
            if value is not False:
                return table
            at = 1
        elif at == 1:
            pair, at = value, 2
        elif at == 2:
            at = 3
        else:
            seed, at = value, 0
        return hashtables_srfi125.unfold_into(table, stop, mapper, successor, seed, at, pair)


class _Rerun(_Waiting):
    """A frame of ``fn`` waiting in a lookup in ``table`` (HashTable.slot, which calls the
    table's own equality and hash procedures), the first call of Scheme code ``fn`` makes:
    resuming calls ``fn`` again on its arguments, that lookup answered by the value
    resumed (what ``fn`` did before it only read the table)."""

    __slots__ = ()  # state: fn, args, table, key

    def resume(self, thunk):
        fn, args, table, key = self.state
        value = thunk()
        table.resumed = (key, value, threading.get_ident())
        try:
            return rt.call_n(fn, args)
        finally:
            table.resumed = None  # used by the first lookup of fn, or not at all


class _BucketScan(_Waiting):
    """HashTable.slot_in_bucket waiting for the table's equivalence on ``bucket[i - 1]``."""

    __slots__ = ()  # state: table, key, h, bucket, i

    def resume(self, thunk):
        table, key, h, bucket, i = self.state
        value = thunk()
        if value is not False:
            return bucket[i - 1]
        return table.slot_in_bucket(key, h, bucket, i)


class _EachPair(_Waiting):
    """hashtables.each_pair waiting in its step on ``pairs[i - 1]``."""

    __slots__ = ()  # state: step, t, pairs, result, i

    def resume(self, thunk):
        step, t, pairs, result, i = self.state
        value = thunk()  # noqa: F841 - bound: the frame is past its waiting call
        return hashtables.each_pair(step, t, pairs, result, i)


class _DeleteKeys(_Waiting):
    """hash-table-delete!'s loop waiting in the deletion of ``keys[i - 1]``."""

    __slots__ = ()  # state: t, keys, deleted, i

    def resume(self, thunk):
        t, keys, deleted, i = self.state
        value = thunk()
        return hashtables_srfi125.delete_keys(t, keys, deleted + value, i)


class _ListsEqual(_Waiting):
    """lists.lists_equal (list=) waiting for ``same`` on the elements ``j`` of
    ``items[i - 1]`` and ``items[i]``."""

    __slots__ = ()  # state: same, items, i, j

    def resume(self, thunk):
        same, items, i, j = self.state
        value = thunk()
        if value is False:
            return False
        return lists.lists_equal(same, items, i, j + 1)


_TRAMPOLINE = _Trampoline()
_PASS = object()  # a frame that only passes the value of its call on


def _unknown(frame: FrameType):
    return None


def _locals_record(make):
    """A record maker reading the frame's locals (None when the frame cannot resume)."""
    def record(frame: FrameType):
        return make(frame.f_locals)
    return record


def _guard_record(v):
    return _PASS if "payload" in v else _Around(rt.guard, 0, v["handler"])


def _guard_reraising_record(v):
    if "payload" not in v:
        return _Around(rt.guard_reraising, 0, v["handler"])
    if "result" in v:
        return _PASS
    handler, payload, continuable, reentry = (v["handler"], v["payload"], v["continuable"],
                                              v["reentry"])
    return _Then(lambda result: result if result is not rt.NO_CLAUSE
                 else rt.reraise(handler, payload, continuable, reentry))


def _handler_record(v):
    if "payload" in v:
        return _HandlerReturned(v["payload"])
    return _Around(rt.with_exception_handler, 1, v["handler"])


def _parameterize_record(v):
    return _Parameterize([(p, p()) for p in v["params"]])


def _converting_record(v):
    done = v["done"]
    if len(done) == len(v["params"]):
        return _PASS  # the converters done, waiting in the bindings' extent
    return _Converting(v["thunk"], v["params"], v["vals"], list(done))


def _wound_record(v):
    if "result" in v:  # inside the after thunk, the extent left
        result = v["result"]
        return _Then(lambda _: result)
    exc = v.get("exc")
    if exc is not None:  # the after thunk of an extent an error leaves
        return _Raised(exc.with_traceback(None)) if isinstance(exc, SchemeError) else None
    return _Around(rt.wound, 1, v["entry"])


def _dynamic_wind_record(v):
    return _PASS if "entry" in v else _Before(v["before"], v["thunk"], v["after"])


def _handle_record(v):
    if "result" in v or "handler" not in v or "exc" in v:
        return None  # past the handler: the secondary raise of a handler that returned or
        # failed
    return _Around(rt.handle, 2, v["obj"], v["continuable"])


def _search_record(found):
    def record(v):
        if "cell" not in v or v.get("text") is not None:
            return None
        return _Search(_SEARCHES[found], (v["who"], v.get("x", v.get("key")), v["same"]),
                       v["cell"], found)
    return record


def _member_found(cell):
    return cell


def _assoc_found(cell):
    return cell[0]


_SEARCHES = {_member_found: lists._member, _assoc_found: lists._assoc}


def _closing(port):
    def finish(value):
        port.close()
        return value
    return finish


def _output_string(port):
    return lambda _: String(port.getvalue())


def _done_promise(value):
    return Promise(True, value)


def _after_call(v):
    """A resume method's own frame: itself until its waiting call returned."""
    return _PASS if "value" in v else v["self"]


def _map_resume_record(v):
    if "out" not in v:
        return v["self"]
    m = v["self"]
    if len(v["out"]) == len(m.items):
        return _PASS  # in finish
    return _Map(m.f, m.items, list(v["out"]), m.rows, m.finish)


def _values_record(v):
    return _PASS if "v" in v else _Around(rt.call_with_values, 0, v["consumer"])


def _map_record(v):
    if len(v["out"]) == len(v["items"]):
        return _PASS  # in finish (which may store into a table)
    return _Map(v["f"], v["items"], list(v["out"]), v["rows"], v["finish"])


def _single_map_record(v):
    if "items" not in v:
        return None  # inside a list walk's check (no procedure of the program runs there)
    return _Map(v["f"], v["items"], list(v["out"]), bool(v["lists"]), lists.from_items)


def _fold_record(v):
    # a list iterator's __reduce__ gives the index of the next item: the one after the
    # item whose call the frame waits in
    position = v["walk"].__reduce__()[2] - 1
    return _Fold(v["kons"], v["items"], position, v["rows"])


def _select_record(v):
    position = v["walk"].__reduce__()[2] - 1  # as _fold_record
    picked = (v["yes"],) if v["keep"] is not None else (v["yes"], v["no"])
    return _Select(v["pred"], v["items"], position, v["keep"], tuple(list(p) for p in picked),
                   v["finish"], v["first"])


def _filter_record(v):
    if "item" not in v:
        return None  # not in a call of the predicate (no procedure of the program runs)
    who, rest = v["who"], v["x"][1]
    finish = lists.from_items
    if is_list(rest):
        items = [v["item"], *lists.proper_items(who, rest)]
    else:  # made improper or circular by the predicate: the walk would end in the error
        items = [v["item"]]

        def finish(_picked):
            raise wrong_type(who, "a proper list", v["lst"])
    picked = (lists.proper_items(who, v["head"][1]),)  # the values kept so far
    return _Select(v["pred"], items, 0, v["keep"], picked, finish, DEFAULT)


def _sort_record(v):
    merged, out = v.get("merged"), v.get("out")
    return _Sort((v["less"], v["items"], v["finish"], list(v["runs"]), v["i"], v["j"],
                  v["down"], None if merged is None else list(merged), v["k"],
                  None if out is None else list(out), v["a"], v["b"]))


def _for_each_record(v):
    return _ForEach(v["f"], v["cell"]) if "cell" in v else None


def _merge_record(v):
    return _Merge((v["less"], v["xs"], v["ys"], v["finish"], list(v["out"]), v["i"], v["j"]))


def _unfold_record(v):
    return _Unfold((v["stop"], v["mapper"], v["successor"], v["seed"], list(v["items"]),
                    v["tail_gen"], v["at"]))


def _unfold_right_record(v):
    return _UnfoldRight((v["stop"], v["mapper"], v["successor"], v["seed"], v["result"],
                         v["at"]))


def _keyed_sort_record(v):
    if v["key"] is DEFAULT or "keys" in v:
        return _PASS  # sorting: sort_then's frame has the state
    return _Then(partial(sorting.sort_by_keys, v["ordering"], v["items"], v["made"]))


def _update_record(v):
    if "value" in v:
        return _PASS  # waiting in updated_with
    if "entry" not in v:
        return None  # in the lookup: rerun (_reruns)
    return _Then(partial(hashtables.updated_with, v["t"], v["slot"], v["key"], v["updater"]))


def _updated_with_record(v):
    if "new_value" in v:
        return _PASS  # in the store (a lookup in a table with procedures of its own)
    return _Then(partial(hashtables.store_updated, v["t"], v["slot"], v["key"]))


# a named iterator's __reduce__ gives the index of the next item: the one after the item
# whose call the frame waits in
def _next_index(walk) -> int:
    return walk.__reduce__()[2]


def _call_args(frame: FrameType) -> list:
    """The arguments a frame's function was called with (its parameters' values)."""
    code = frame.f_code
    v = frame.f_locals
    n = code.co_argcount
    args = [v[name] for name in code.co_varnames[:n]]
    if code.co_flags & CO_VARARGS:
        args.extend(v[code.co_varnames[n + code.co_kwonlyargcount]])
    return args


def _reruns(fn, table: str = "t", key: str = "key", past=None):
    """The record of a frame of ``fn`` waiting in its lookup of ``key`` in ``table`` (its
    locals' names); ``past(v)`` gives the record once that lookup is done, if it can be."""
    def record(frame: FrameType):
        v = frame.f_locals
        if past is not None:
            done = past(v)
            if done is not None:
                return done
        return _Rerun((fn, _call_args(frame), v[table], v[key]))
    return {fn.__code__: record}


def _slot_record(v):
    if "walk" in v:  # in the table's equivalence
        return _BucketScan((v["self"], v["key"], v["h"], v["bucket"], _next_index(v["walk"])))
    return _Then(partial(_hashed, v["self"], v["key"]))  # in its hash procedure


def _hashed(table, key, h):
    """The rest of HashTable.slot once its hash procedure gave ``h``: the scan from the
    start of that bucket."""
    h = hashtables.checked_hash(h)
    return table.slot_in_bucket(key, h, tuple(table.buckets.get(h, ())), 0)


def _describe(frame: FrameType) -> str:
    """Name what stops a capture: the primitive the frame belongs to, else the function."""
    from harness.scheme.primitives import PROCEDURE_NAMES, scheme_name_of
    maker, local, _ = frame.f_code.co_qualname.partition(".<locals>.")
    if local and frame.f_code.co_filename.startswith(_PRIMITIVES_DIR):
        # a procedure a primitive made (a comparator's equality…), that cannot resume it
        return f"a procedure that {scheme_name_of(maker)} made (it cannot resume it)"
    primitives = {getattr(p, "__code__", None): name for p, name in PROCEDURE_NAMES.items()}
    f = frame
    while f is not None and f.f_code is not _PROMPT_CODE and not is_compiled(f.f_code):
        name = primitives.get(f.f_code)
        if name is not None:
            return f"{name} (a primitive that cannot resume it)"
        f = f.f_back
    return f"{frame.f_code.co_name} (host code)"


_PRIMITIVES_DIR = os.path.dirname(lists.__file__)

#: primitives (and the resume methods above) whose frames only return the value they wait for
_PASS_THROUGH = frozenset(f.__code__ for f in (
    rt.apply, rt.call_n, rt._star_call, call_cc, Continuation.resume, _resume_from,
    _inner(None, -1, None),
    _Around.resume, rt.raise_, rt.raise_continuable, rt.scheme_error_proc, rt.reraise,
    _Reentry.__call__, _Reraise.again,
    lists.member, lists.assoc, lists.filter_, lists.remove, lists.partition, lists.delete,
    lists.filter_map, lists.append_map, lists.unfold, lists.unfold_right, lists.list_tabulate,
    lists.list_eq, vectors.vector_map, strings.string_map, sorting.stable_sorted,
    sorting.keyed(None, None), sorting.list_sort,
    sorting.vector_sort, sorting.vector_sort_x,
    rt.parameterize,
    sorting.vector_merge, sorting.vector_merge_x, sorting.sort_by_keys,
    hashtables.hash_table_walk, hashtables.hash_table_fold,
    sorting.vector_sorted_p,
    sorting.vector_delete_neighbor_dups, sorting.vector_delete_neighbor_dups_x,
    hashtables.HashTable.current_slot, hashtables.add_alist, hashtables.alist_to_hash_table,
    hashtables_srfi125.alist_to_hash_table,
    hashtables_srfi125.hash_table_map, hashtables_srfi125.hash_table_map_x,
    hashtables_srfi125.hash_table_prune_x, hashtables_srfi125._stored,
    hashtables_srfi125._restored, hashtables_srfi125._pruned,
    hashtables_srfi125.hash_table_unfold,
    hashtables_srfi125._set_pairs, hashtables_srfi125.hash_table,
    hashtables_srfi125.hash_table_set_x, hashtables_srfi125.hash_table_delete_x,
    hashtables_srfi125.hash_table_xor_x, hashtables_srfi125.hash_table_union_x,
))

_RECORDS = {
    rt.trampoline.__code__: lambda frame: _TRAMPOLINE,
    _Procedure.__call__.__code__: _locals_record(lambda v: _PASS if "r" in v else _TRAMPOLINE),
    rt.guard.__code__: _locals_record(_guard_record),
    rt.guard_reraising.__code__: _locals_record(_guard_reraising_record),
    _Reraise.resume.__code__: _locals_record(_after_call),
    rt.with_exception_handler.__code__: _locals_record(_handler_record),
    rt.bound.__code__: _locals_record(_parameterize_record),
    rt.converting.__code__: _locals_record(_converting_record),
    _Converting.resume.__code__: _locals_record(_after_call),
    sorting.merge_then.__code__: _locals_record(_merge_record),
    _Merge.resume.__code__: _locals_record(_after_call),
    sorting.sort.__code__: _locals_record(_keyed_sort_record),
    hashtables.updated_with.__code__: _locals_record(_updated_with_record),
    hashtables.map_entries.__code__: _locals_record(
        lambda v: _PASS if len(v["out"]) == len(v["entries"])  # in finish
        else _MapEntries((v["proc"], v["entries"], v["finish"], list(v["out"])))),
    _MapEntries.resume.__code__: _locals_record(_after_call),
    hashtables.fold_entries.__code__: _locals_record(
        # a list iterator's __reduce__ gives the index after the entry waited for
        lambda v: _FoldEntries((v["kons"], v["entries"], v["walk"].__reduce__()[2] - 1))),
    _FoldEntries.resume.__code__: _locals_record(_after_call),
    hashtables.each_entry.__code__: _locals_record(
        lambda v: _EachEntry((v["proc"], v["entries"], v["walk"].__reduce__()[2] - 1))),
    _EachEntry.resume.__code__: _locals_record(_after_call),
    rt.dynamic_wind.__code__: _locals_record(_dynamic_wind_record),
    rt.wound.__code__: _locals_record(_wound_record),
    rt.handle.__code__: _locals_record(_handle_record),
    rt.call_with_values.__code__: _locals_record(_values_record),
    rt.force.__code__: lambda frame: _Force(frame.f_locals["promise"]),
    rt.DELAYED_CODE: lambda frame: _Then(_done_promise),
    lists.map_then.__code__: _locals_record(_map_record),
    lists.map_.__code__: _locals_record(_single_map_record),
    lists.fold_then.__code__: _locals_record(_fold_record),
    lists.select_then.__code__: _locals_record(_select_record),
    lists.filter_then.__code__: _locals_record(_filter_record),
    _Select.resume.__code__: _locals_record(_after_call),
    lists.unfold_then.__code__: _locals_record(_unfold_record),
    _Unfold.resume.__code__: _locals_record(_after_call),
    lists.unfold_right_then.__code__: _locals_record(_unfold_right_record),
    _UnfoldRight.resume.__code__: _locals_record(_after_call),
    lists.lists_equal.__code__: _locals_record(
        lambda v: _ListsEqual((v["same"], v["items"], v["i"], v["j"]))),
    sorting.sort_then.__code__: _locals_record(_sort_record),
    _Sort.resume.__code__: _locals_record(_after_call),
    lists.for_each.__code__: _locals_record(
        lambda v: _PASS if v["lists"] else _for_each_record(v)),
    lists._member.__code__: _locals_record(_search_record(_member_found)),
    lists._assoc.__code__: _locals_record(_search_record(_assoc_found)),
    ports.call_with_port.__code__: _locals_record(lambda v: _Then(_closing(v["port"]))),
    ports.call_with_output_string.__code__: _locals_record(
        lambda v: _Then(_output_string(v["port"]))),
    ports.with_output_to_string.__code__: _locals_record(lambda v: _OutputTo(v["port"])),
    SchemeFrame.resume.__code__: _locals_record(_after_call),
    _Trampoline.resume.__code__: _locals_record(
        lambda v: _PASS if "value" in v else _TRAMPOLINE),
    _HandlerReturned.resume.__code__: _locals_record(_after_call),
    _Parameterize.resume.__code__: _locals_record(lambda v: v["self"]),
    _Map.resume.__code__: _locals_record(_map_resume_record),
    _ForEach.resume.__code__: _locals_record(_after_call),
    _Search.resume.__code__: _locals_record(_after_call),
    _Fold.resume.__code__: _locals_record(_after_call),
    _Then.resume.__code__: _locals_record(_after_call),
    _Before.resume.__code__: _locals_record(_after_call),
    _Raised.resume.__code__: _locals_record(_after_call),
    _Force.resume.__code__: _locals_record(_after_call),
    _OutputTo.resume.__code__: _locals_record(_after_call),
    sorting.sorted_then.__code__: _locals_record(
        lambda v: _SortedCheck((v["less"], v["items"], _next_index(v["walk"])))),
    sorting.without_neighbor_dups.__code__: _locals_record(
        lambda v: _NeighborDups((v["same"], v["items"], v["finish"], list(v["kept"]),
                                 _next_index(v["walk"])))),
    **{cls.resume.__code__: _locals_record(_after_call)
       for cls in (_SortedCheck, _NeighborDups, _TableUnfold,
                   _Rerun, _BucketScan, _EachPair, _DeleteKeys, _ListsEqual)},
    # a hash table's own equality and hash procedures: the lookup, then what waits for it
    hashtables.HashTable.slot.__code__: _locals_record(_slot_record),
    hashtables.HashTable.slot_in_bucket.__code__: _locals_record(
        lambda v: _BucketScan((v["self"], v["key"], v["h"], v["bucket"],
                               _next_index(v["walk"])))),
    hashtables.user_hash.__code__: lambda frame: _Then(hashtables.checked_hash),
    hashtables.each_pair.__code__: _locals_record(
        lambda v: _EachPair((v["step"], v["t"], v["pairs"], v["result"],
                             _next_index(v["walk"])))),
    hashtables_srfi125.delete_keys.__code__: _locals_record(
        lambda v: _DeleteKeys((v["t"], v["keys"], v["deleted"], _next_index(v["walk"])))),
    **_reruns(hashtables.hash_table_ref, past=lambda v: _PASS if "entry" in v else None),
    **_reruns(hashtables.hash_table_update_x, past=_update_record),
    **_reruns(hashtables_srfi125._store, "table"),
    **_reruns(hashtables_srfi125._store_pair, "table"),
    **{code: record for fn in (
        hashtables.hash_table_ref_default, hashtables.hash_table_set_x,
        hashtables.hash_table_delete_x, hashtables.hash_table_exists_p,
        hashtables.hash_table_contains_p, hashtables.store_updated, hashtables.add_absent,
        hashtables_srfi125.delete_one, hashtables_srfi125.toggle,
        hashtables_srfi125.discard_if)
       for code, record in _reruns(fn).items()},
    hashtables_srfi125.unfold_into.__code__: _locals_record(
        lambda v: _TableUnfold((v["table"], v["stop"], v["mapper"], v["successor"],
                                v["seed"], v["at"]))),
}
