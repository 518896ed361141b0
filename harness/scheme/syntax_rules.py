"""``syntax-rules`` macros: pattern matching and hygienic template instantiation.

Supports literals, ``_``, nested ellipses, ellipsis followed by more patterns (``(a ... b)``),
dotted and vector patterns, a custom ellipsis (``(syntax-rules ::: (lits) ...)``) and the
``(... ...)`` escape. Symbols a template introduces become ``Alias`` objects bound to the
macro's definition scope (see syntax.py).
"""

from __future__ import annotations

from harness.scheme.datatypes import NIL, Vector, split_list, sym
from harness.scheme.errors import syntax_error
from harness.scheme.limits import CHUNK, charge
from harness.scheme.syntax import Alias, Scope, is_identifier, same_binding

ELLIPSIS = sym("...")
UNDERSCORE = sym("_")


class _NoMatch(Exception):
    pass


class Macro:
    """A syntax-rules transformer defined in ``scope``."""

    __slots__ = ("ellipsis", "literals", "name", "rules", "scope")

    def __init__(self, name: str, literals: list, rules: list[tuple[object, object]],
                 ellipsis: object, scope: Scope) -> None:
        self.name = name
        self.literals = literals
        self.rules = rules
        self.ellipsis = ellipsis
        self.scope = scope

    def __repr__(self) -> str:
        return f"#<macro {self.name}>"

    def expand(self, form: list, use_scope: Scope, where) -> object:
        for pattern, template in self.rules:
            binds: dict = {}
            try:
                # The keyword position of the pattern is ignored (R7RS 4.3.2).
                self._match(pattern[1], form[1], use_scope, binds)
            except _NoMatch:
                continue
            renames: dict = {}
            return self._instantiate(template, binds, renames)
        from harness.scheme.printer import write_truncated
        raise syntax_error(f"{self.name}: no syntax-rules pattern matches "
                           f"{write_truncated(_strip_for_message(form))}", where)

    # -- matching ------------------------------------------------------------------------
    def _is_ellipsis(self, x: object) -> bool:
        if self.ellipsis is None or not is_identifier(x):
            return False
        return x is self.ellipsis or (
            self.ellipsis is ELLIPSIS and x.__class__ is Alias and x.base() is ELLIPSIS)

    def _is_literal(self, p: object) -> bool:
        return any(p is lit for lit in self.literals)

    def _match(self, pat, form, use_scope: Scope, binds: dict) -> None:
        if is_identifier(pat):
            if self._is_literal(pat):
                if not (is_identifier(form) and same_binding(form, use_scope, pat, self.scope)):
                    raise _NoMatch
            elif pat is not UNDERSCORE:
                binds[pat] = form
            return
        if pat.__class__ is list:
            self._match_list(pat, form, use_scope, binds)
            return
        if pat.__class__ is Vector:
            if form.__class__ is not Vector:
                raise _NoMatch
            self._match_seq(pat.items, NIL, list(form.items), NIL, use_scope, binds)
            return
        if pat is NIL:
            if form is not NIL:
                raise _NoMatch
            return
        if not _datum_equal(pat, form):
            raise _NoMatch

    def _match_list(self, pat, form, use_scope, binds) -> None:
        pats, ptail = _split(pat)
        forms, ftail = _split(form)
        self._match_seq(pats, ptail, forms, ftail, use_scope, binds)

    def _match_seq(self, pats: list, ptail, forms: list, ftail, use_scope, binds) -> None:
        ell = next((i for i, p in enumerate(pats) if self._is_ellipsis(p)), None)
        if ell is None:
            if len(forms) < len(pats):
                raise _NoMatch
            for p, f in zip(pats, forms):
                self._match(p, f, use_scope, binds)
            rest = forms[len(pats):]
            if ptail is NIL:
                if rest or ftail is not NIL:
                    raise _NoMatch
            else:
                tail_form = ftail
                for item in reversed(rest):
                    tail_form = [item, tail_form]
                self._match(ptail, tail_form, use_scope, binds)
            return
        before, repeated, after = pats[:ell - 1], pats[ell - 1], pats[ell + 1:]
        n_rep = len(forms) - len(before) - len(after)
        if n_rep < 0 or (ptail is NIL and ftail is not NIL):
            raise _NoMatch
        for p, f in zip(before, forms):
            self._match(p, f, use_scope, binds)
        matches = []
        for f in forms[len(before):len(before) + n_rep]:
            b: dict = {}
            self._match(repeated, f, use_scope, b)
            matches.append(b)
        for var in self._pattern_vars(repeated):
            binds[var] = _Seq([m[var] for m in matches])
        after_forms = forms[len(before) + n_rep:]
        for p, f in zip(after, after_forms):
            self._match(p, f, use_scope, binds)
        if ptail is not NIL:
            self._match(ptail, ftail, use_scope, binds)

    def _pattern_vars(self, pat) -> list:
        out = []
        stack = [pat]
        while stack:
            p = stack.pop()
            if is_identifier(p):
                if not (self._is_literal(p) or self._is_ellipsis(p) or p is UNDERSCORE):
                    out.append(p)
            elif p.__class__ is list:
                stack.append(p[0])
                stack.append(p[1])
            elif p.__class__ is Vector:
                stack.extend(p.items)
        return out

    # -- instantiation -------------------------------------------------------------------
    def _instantiate(self, tmpl, binds: dict, renames: dict):
        if is_identifier(tmpl):
            if tmpl in binds:
                value = binds[tmpl]
                if isinstance(value, _Seq):
                    raise syntax_error(f"{self.name}: pattern variable {tmpl!r} used without "
                                       "an ellipsis", None)
                return value
            alias = renames.get(tmpl)
            if alias is None:
                alias = renames[tmpl] = Alias(tmpl, self.scope)
            return alias
        if tmpl.__class__ is list:
            # (... ...) escapes the ellipsis inside its template
            if self._is_ellipsis(tmpl[0]) and tmpl[1].__class__ is list:
                saved = self.ellipsis
                self.ellipsis = None
                try:
                    return self._instantiate(tmpl[1][0], binds, renames)
                finally:
                    self.ellipsis = saved
            items, tail = _split(tmpl)
            out = self._instantiate_seq(items, binds, renames)
            result = self._instantiate(tail, binds, renames) if tail is not NIL else NIL
            for x in reversed(out):
                result = [x, result]
            return result
        if tmpl.__class__ is Vector:
            return Vector(self._instantiate_seq(tmpl.items, binds, renames))
        return tmpl

    def _instantiate_seq(self, items: list, binds: dict, renames: dict) -> list:
        if len(items) > CHUNK:
            charge(len(items))
        out = []
        i, n = 0, len(items)
        while i < n:
            t = items[i]
            depth = 0
            while i + 1 + depth < n and self._is_ellipsis(items[i + 1 + depth]):
                depth += 1
            if depth == 0:
                out.append(self._instantiate(t, binds, renames))
                i += 1
                continue
            expanded = self._expand_ellipsis(t, binds, renames, depth)
            if len(expanded) > CHUNK:
                charge(len(expanded))  # a macro doubling its input each time stops
            out.extend(expanded)
            i += 1 + depth
        return out

    def _expand_ellipsis(self, tmpl, binds: dict, renames: dict, depth: int) -> list:
        vars_in = [v for v in self._template_vars(tmpl) if isinstance(binds.get(v), _Seq)]
        if not vars_in:
            raise syntax_error(f"{self.name}: no pattern variable before '...' in template",
                               None)
        lengths = {len(binds[v].items) for v in vars_in}
        if len(lengths) > 1:
            raise syntax_error(f"{self.name}: pattern variables under one ellipsis matched "
                               "different lengths", None)
        n = lengths.pop()
        results = []
        for k in range(n):
            local = dict(binds)
            for v in vars_in:
                local[v] = binds[v].items[k]
            if depth > 1:
                results.extend(self._expand_ellipsis(tmpl, local, renames, depth - 1))
            else:
                results.append(self._instantiate(tmpl, local, renames))
        return results

    def _template_vars(self, tmpl) -> list:
        out = []
        stack = [tmpl]
        while stack:
            t = stack.pop()
            if is_identifier(t):
                out.append(t)
            elif t.__class__ is list:
                stack.append(t[0])
                stack.append(t[1])
            elif t.__class__ is Vector:
                stack.extend(t.items)
        return out


class _Seq:
    """The matches of a pattern variable under an ellipsis."""

    __slots__ = ("items",)

    def __init__(self, items: list) -> None:
        self.items = items


_split = split_list


def _datum_equal(a, b) -> bool:
    from harness.scheme.primitives.equivalence import is_equal
    return is_equal(a, b)


def _strip_for_message(form):
    from harness.scheme.syntax import strip
    return strip(form)


def parse_syntax_rules(spec, scope: Scope, name: str, where) -> Macro:
    """Build a Macro from ``(syntax-rules [ellipsis] (literal ...) (pattern template) ...)``."""
    rest = spec[1]
    ellipsis: object = ELLIPSIS
    if rest.__class__ is list and is_identifier(rest[0]):
        ellipsis, rest = rest[0], rest[1]
    if rest.__class__ is not list:
        raise syntax_error("syntax-rules: expected a list of literals", where)
    literals, rules_list = rest[0], rest[1]
    lits, tail = _split(literals)
    if tail is not NIL or not all(is_identifier(x) for x in lits):
        raise syntax_error("syntax-rules: literals must be a list of identifiers", where)
    rules = []
    for rule in _split(rules_list)[0]:
        parts, tail = _split(rule)
        if len(parts) != 2 or tail is not NIL or parts[0].__class__ is not list:
            raise syntax_error("syntax-rules: each rule must be (pattern template)", where)
        rules.append((parts[0], parts[1]))
    if any(lit is ellipsis for lit in lits):  # R7RS 4.3.2: then it is a literal, no ellipsis
        ellipsis = None
    macro = Macro(name, lits, rules, ellipsis, scope)
    for pattern, _template in rules:
        _check_pattern(macro, pattern[1], where)
    return macro


def _check_pattern(macro: Macro, pattern, where) -> None:
    """Refuse what R7RS 4.3.2 says a pattern cannot be: a pattern variable twice, two
    ellipses in one list or vector, an ellipsis that follows nothing or ends a dotted list
    (the keyword position, already cut off, counts for nothing)."""
    seen: set = set()
    stack = [pattern]
    while stack:
        p = stack.pop()
        if p.__class__ is list or p.__class__ is Vector:
            items, tail = _split(p) if p.__class__ is list else (p.items, NIL)
            ellipses = [i for i, x in enumerate(items) if macro._is_ellipsis(x)]
            if len(ellipses) > 1:
                raise syntax_error(f"{macro.name}: a pattern has more than one ellipsis in "
                                   "the same list or vector", where)
            if ellipses and ellipses[0] == 0:
                raise syntax_error(f"{macro.name}: an ellipsis in a pattern must follow a "
                                   "pattern", where)
            stack.extend(x for i, x in enumerate(items) if i not in ellipses)
            if tail is not NIL:
                stack.append(tail)
        elif macro._is_ellipsis(p):  # what is left of them: the tail of a dotted list
            raise syntax_error(f"{macro.name}: an ellipsis cannot end a dotted pattern", where)
        elif is_identifier(p) and p is not UNDERSCORE and not macro._is_literal(p):
            if p in seen:
                raise syntax_error(f"{macro.name}: pattern variable {p!r} appears more than "
                                   "once in a pattern", where)
            seen.add(p)
