"""Call sites of compiled code, so a suspended frame can be resumed (continuations.py).

The compiler numbers every Python call it emits that may run Scheme code (a *site*) and
writes the number into that call's position: ``end_col_offset = col_offset + 1 + site``
(every other node has ``end_col_offset == col_offset``), so the instruction a suspended
frame waits in names its site at no run-time cost. ``register`` remembers, for each code
object of a compiled form, the ``CompiledUnit`` that explains its sites; the entry goes
away with the code object.

The unit also records which ``Lambda`` each Python function of the form was compiled from
and which calls the compiler wrote inline, so that analyses of a procedure's code read the
core AST it came from (``procedure_of``; hook_bounds.py, payload_use.py), never CPython's
bytecode, whose instructions change with every Python version.

Code read back from the compiled-definition cache (compiled_definitions.py) is registered
with a ``UnitLoader``: its unit is rebuilt from the cache entry when first asked for.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from types import CodeType, FrameType

#: a site where a procedure's body calls something (the rest is derived from ``node``)
CALL = "call"
#: a site in the public wrapper of a procedure whose body returns tail-call markers
WRAPPER = "wrapper"


class Site:
    """One call site: its kind, the core ``Call`` node it runs (for CALL sites) and the
    ``Lambda`` whose Python function holds it (None: the top-level form itself)."""

    __slots__ = ("kind", "lam", "node")

    def __init__(self, kind: str, node: object, lam: object) -> None:
        self.kind, self.node, self.lam = kind, node, lam


class CompiledUnit:
    """What one compiled top-level form needs to resume its frames later: the form, where
    it was compiled, its sites and the temporaries that hold spilled operands."""

    __slots__ = ("budget_check", "env", "filename", "inlined", "procedures", "resumers", "root",
                 "sites", "spilled")

    def __init__(self, root: object, env: object, filename: str, budget_check: str) -> None:
        self.root, self.env, self.filename, self.budget_check = root, env, filename, budget_check
        self.sites: list[Site] = []
        self.spilled: dict[int, str] = {}  # id(core node) -> the temporary holding its value
        self.resumers: dict[int, object] = {}  # site -> compiled resume procedure (lazily)
        #: Python function name -> the Lambda compiled under it (None: two Lambdas share it)
        self.procedures: dict[str, object] = {}
        #: id(core Call node) -> the primitive whose template the compiler wrote in its place
        self.inlined: dict[int, object] = {}

    def add_site(self, kind: str, node: object, lam: object) -> int:
        self.sites.append(Site(kind, node, lam))
        return len(self.sites) - 1

    def add_procedure(self, name: str, lam: object) -> None:
        """Note that the Python function ``name`` is compiled from ``lam`` (a name two
        Lambdas share names neither: ``procedure_of`` then finds none)."""
        if self.procedures.setdefault(name, lam) is not lam:
            self.procedures[name] = None


class UnitLoader:
    """The unit of code compiled in an earlier process, made by ``load`` when first asked
    for (most such code never needs its unit)."""

    __slots__ = ("_load", "_unit")

    def __init__(self, load: Callable[[], CompiledUnit]) -> None:
        self._load = load
        self._unit: CompiledUnit | None = None

    def unit(self) -> CompiledUnit:
        if self._unit is None:
            self._unit = self._load()
        return self._unit


_units: dict[int, tuple[weakref.ref, CompiledUnit | UnitLoader]] = {}


def _unit_of(entry: tuple) -> CompiledUnit:
    unit = entry[1]
    return unit.unit() if unit.__class__ is UnitLoader else unit


def register(code: CodeType, unit: CompiledUnit | UnitLoader) -> None:
    """Remember ``unit`` for ``code`` and every code object nested in it."""
    stack = [code]
    while stack:
        c = stack.pop()
        key = id(c)
        _units[key] = (weakref.ref(c, lambda _, key=key, units=_units: units.pop(key, None)),
                       unit)
        stack.extend(k for k in c.co_consts if isinstance(k, CodeType))


def site_of(frame: FrameType) -> tuple[CompiledUnit, int] | None:
    """The unit and site number a frame of compiled code is suspended in, if any."""
    entry = _units.get(id(frame.f_code))
    if entry is None or entry[0]() is not frame.f_code:
        return None
    _, _, col, end_col = _position(frame)
    if col is None or end_col is None or end_col <= col:
        return None
    unit = _unit_of(entry)
    index = end_col - col - 1
    return (unit, index) if index < len(unit.sites) else None


def procedure_of(proc: object) -> tuple[CompiledUnit, object] | None:
    """(unit, Lambda) for a Python function the compiler made from that ``Lambda`` of that
    unit's form; None for anything else (a primitive, a Python function, a function whose
    name two Lambdas of its form share)."""
    code = getattr(proc, "__code__", None)
    entry = _units.get(id(code))
    if entry is None or entry[0]() is not code:
        return None
    unit = _unit_of(entry)
    lam = unit.procedures.get(code.co_name)
    return None if lam is None else (unit, lam)


def is_compiled(code: CodeType) -> bool:
    entry = _units.get(id(code))
    return entry is not None and entry[0]() is code


def _position(frame: FrameType) -> tuple:
    """(line, end line, column, end column) of the instruction the frame waits in."""
    return next(itertools.islice(frame.f_code.co_positions(), frame.f_lasti // 2, None),
                (None, None, None, None))
