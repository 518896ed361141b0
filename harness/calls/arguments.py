"""A tool call's arguments, checked against the tool's JSON Schema before it runs (SPEC §11).

One check for every kind of tool (Scheme, Python, plugin, builtin):

* an integer (or number) parameter given as a numeric string (``"200"``) is read as that
  number (chibi's tools pass line counts as strings);
* a wrong-typed argument is an error that names it and the expected type:
  ``argument 'lines' must be an integer, got a string ("ten")``;
* a name the schema does not know (``{"nmae": "Ada"}``, when the schema lists its
  ``properties`` and does not allow others) is an error before the call that names it and
  the closest known name, and so is a missing required argument: a tool never runs with
  nothing;
* except where chibi's rule holds: chibi's files mark every parameter required, handle the
  absent ones and call each other with only the arguments they need, so for Scheme and
  builtin tools a missing argument (``missing_ok``), and in a ``call-tool`` from Scheme an
  unknown one too (``unknown_ok``), is only listed (``missing``, ``unknown``) and named if
  the tool then fails.

Schemas are compiled with fastjsonschema (pure Python, no dependencies, a compiled
validator checks a small object in 1–2 µs) once per schema object. A schema that cannot
be compiled is not enforced; ``schema_problem`` says why, so the call reports it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

# fastjsonschema is imported by the first schema compiled: a process that calls no tool (a
# hook dispatch, harness check) never pays for its import.
if TYPE_CHECKING:
    from fastjsonschema import JsonSchemaValueException

_INTEGER = re.compile(r"[+-]?\d+\Z")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")

_TYPE_NAMES = {"integer": "an integer", "number": "a number", "string": "a string",
               "boolean": "a boolean", "array": "an array", "object": "an object",
               "null": "null"}


@dataclass(frozen=True)
class ArgumentCheck:
    """The arguments to call the tool with (numeric strings read as numbers), or the
    ``error`` that stops the call; ``missing`` required names; ``schema_problem`` when the
    schema itself is unusable (the arguments were then not checked)."""

    arguments: dict
    error: str | None = None
    missing: tuple[str, ...] = ()
    schema_problem: str | None = None
    unknown: tuple[str, ...] = ()

    def absent_note(self) -> str:
        """`` (missing required argument: 'id')``, said after a failure under chibi's rule."""
        parts = []
        if self.missing:
            parts.append(f"missing required argument{'s' if len(self.missing) > 1 else ''}: "
                         + ", ".join(f"'{m}'" for m in self.missing))
        if self.unknown:
            parts.append(f"unknown argument{'s' if len(self.unknown) > 1 else ''}: "
                         + ", ".join(f"'{u}'" for u in self.unknown))
        return f" ({'; '.join(parts)})" if parts else ""


class _Validators:
    """Compiled validators by schema object (the schema is kept, so its id stays its own)."""

    LIMIT = 1024

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[dict, object]] = {}
        self._lock = threading.Lock()

    def get(self, schema: dict):
        """The validator of ``schema`` (required names left out: see the module doc)."""
        entry = self._by_id.get(id(schema))
        if entry is not None and entry[0] is schema:
            return entry[1]
        body = {k: v for k, v in schema.items() if k != "required"}
        import fastjsonschema
        try:
            validator = fastjsonschema.compile(body, use_default=False)
        except Exception as exc:  # noqa: BLE001 - any malformed schema: report, do not crash
            validator = exc
        with self._lock:
            if len(self._by_id) >= self.LIMIT:
                self._by_id.clear()  # schemas of reloaded files: rebuilt on demand
            self._by_id[id(schema)] = (schema, validator)
        return validator


_validators = _Validators()


def check_arguments(schema: object, arguments: dict, *, missing_ok: bool = False,
                    unknown_ok: bool = False) -> ArgumentCheck:
    """Check ``arguments`` against the tool's ``schema`` (see the module doc); with
    ``missing_ok`` / ``unknown_ok`` missing / unknown names are listed, not errors."""
    if not isinstance(schema, dict) or not schema:
        return ArgumentCheck(arguments)
    properties = schema.get("properties")
    if isinstance(properties, dict) and arguments:
        arguments = _read_numbers(properties, arguments)
    required = schema.get("required")
    missing = tuple(name for name in required if isinstance(name, str)
                    and name not in arguments) if isinstance(required, list) else ()
    unknown = _unknown_names(schema, properties, arguments)
    if (unknown and not unknown_ok) or (missing and not missing_ok):
        return ArgumentCheck(arguments, error=_absent_message(
            () if missing_ok else missing, () if unknown_ok else unknown, properties))
    validator = _validators.get(schema)
    if isinstance(validator, Exception):
        return ArgumentCheck(arguments, missing=missing, unknown=unknown,
                             schema_problem=f"its parameters schema is invalid ({validator}); "
                                            "arguments were not checked")
    try:
        validator(arguments)
    except Exception as exc:  # noqa: BLE001 - a validator that fails is a schema problem
        from fastjsonschema import JsonSchemaValueException  # imported to compile it
        if isinstance(exc, JsonSchemaValueException):
            return ArgumentCheck(arguments, error=_message(exc), missing=missing,
                                 unknown=unknown)
        return ArgumentCheck(arguments, missing=missing, unknown=unknown,
                             schema_problem=f"its parameters schema could not be checked "
                                            f"({type(exc).__name__}: {exc})")
    return ArgumentCheck(arguments, missing=missing, unknown=unknown)


def _unknown_names(schema: dict, properties: object, arguments: dict) -> tuple[str, ...]:
    """The argument names ``schema`` does not know: it lists its properties and does not
    allow others (``additionalProperties`` left out counts as not allowing them: a tool's
    parameters are all it reads)."""
    if not properties or not isinstance(properties, dict) \
            or schema.get("additionalProperties", False):
        return ()  # (no properties: a tool that declares none may still read some)
    return tuple(name for name in arguments if name not in properties)


def _absent_message(missing: tuple[str, ...], unknown: tuple[str, ...],
                    properties: object) -> str:
    """``missing required argument 'name'; unknown argument 'nmae' (did you mean 'name'?)``"""
    from harness.spelling import closest_name
    known = list(properties) if isinstance(properties, dict) else []
    parts = []
    if missing:
        parts.append(f"missing required argument{'s' if len(missing) > 1 else ''} "
                     + ", ".join(f"'{m}'" for m in missing))
    for name in unknown:
        close = closest_name(name, known)
        hint = (f" (did you mean '{close}'?)" if close else
                f" (it takes {', '.join(repr(k) for k in known)})" if known else
                " (it takes no arguments)")
        parts.append(f"unknown argument '{name}'{hint}")
    return "; ".join(parts)


def _read_numbers(properties: dict, arguments: dict) -> dict:
    """``arguments`` with numeric strings of integer/number parameters read as numbers."""
    changed = None
    for name, value in arguments.items():
        if type(value) is not str:
            continue
        spec = properties.get(name)
        kinds = spec.get("type") if isinstance(spec, dict) else None
        kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds or ())
        if "string" in kinds:
            continue  # a string is allowed as it is
        text = value.strip()
        if "integer" in kinds and _INTEGER.match(text):
            number: int | float = int(text)
        elif "number" in kinds and _NUMBER.match(text):
            number = int(text) if _INTEGER.match(text) else float(text)
        else:
            continue
        if changed is None:
            changed = dict(arguments)
        changed[name] = number
    return arguments if changed is None else changed


def _message(exc: JsonSchemaValueException) -> str:
    """``data.lines must be integer`` -> ``argument 'lines' must be an integer, got ...``."""
    name = str(exc.name or "data")  # data.items[1]
    where = name[len("data"):].lstrip(".") if name.startswith("data") else name
    subject = f"argument '{where}'" if where else "the arguments"
    if exc.rule == "type" and isinstance(exc.definition, dict):
        expected = exc.definition.get("type")
        kinds = [expected] if isinstance(expected, str) else list(expected or ())
        wanted = " or ".join(_TYPE_NAMES.get(k, str(k)) for k in kinds)
        return f"{subject} must be {wanted}, got {_describe(exc.value)}"
    text = str(exc.message)
    return subject + text[len(name):] if text.startswith(name) else f"{subject}: {text}"


def _describe(value: object) -> str:
    from harness.bridge import dumps
    kind = ("null" if value is None else "a boolean" if isinstance(value, bool)
            else "an integer" if isinstance(value, int) else "a number"
            if isinstance(value, float) else "a string" if isinstance(value, str)
            else "an array" if isinstance(value, list) else "an object"
            if isinstance(value, dict) else type(value).__name__)
    if value is None or isinstance(value, (dict, list)):
        return kind
    try:
        shown = dumps(value).decode()
    except (TypeError, ValueError):
        shown = repr(value)
    return f"{kind} ({shown[:40]}{'...' if len(shown) > 40 else ''})"
