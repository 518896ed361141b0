"""The benchmark programs of programs/*.scm written in plain Python, for the ratios."""

from __future__ import annotations

import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def tak(x, y, z):
    if not y < x:
        return z
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))


def loop():
    i, acc = 0, 0
    while i != 30_000_000:
        i, acc = i + 1, acc + i
    return acc


def _ok(row, dist, placed):
    while placed is not None:
        head, placed = placed
        if head == row + dist or head == row - dist or head == row:
            return False
        dist += 1
    return True


def _try(x, y, z):
    # lists as (head, tail) tuples / None, like Scheme pairs
    if x is None:
        return 1 if y is None else 0
    head, tail = x
    total = 0
    if _ok(head, 1, z):
        total += _try(_append(tail, y), None, (head, z))
    return total + _try(tail, (head, y), z)


def _append(a, b):
    items = []
    while a is not None:
        items.append(a[0])
        a = a[1]
    for item in reversed(items):
        b = (item, b)
    return b


def queens():
    lst = None
    for i in range(8, 0, -1):
        lst = (i, lst)
    return _try(lst, None, None)


TEXT = "word " * 20000


def split():
    return len(TEXT.split(" "))


def _build(n):
    return None if n == 0 else (n, _build(n - 1))


def _sum(lst):
    return 0 if lst is None else lst[0] + _sum(lst[1])


def deep():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2_100_000))
    return _sum(_build(1_000_000))


PROGRAMS = {
    "fib": lambda: fib(30),
    "tak": lambda: tak(24, 16, 8),
    "loop": loop,
    "queens": queens,
    "split": split,
    "deep": deep,
}


# -- the kinds of programs of issue 16 (programs/rewrite.scm ... cpstak.scm) ---------------
# Pairs are (head, tail) tuples and '() is None where the Scheme program walks lists, so
# that both sides run the same algorithm; Python's own strings, bytes and lists stand in
# where the Scheme program calls a primitive on the whole object.


def _plist(*items):
    out = None
    for item in reversed(items):
        out = (item, out)
    return out


def _from_nested(x):
    """A nested Python list of strings -> linked tuples (a quoted Scheme datum)."""
    if isinstance(x, list):
        return _plist(*(_from_nested(i) for i in x))
    return x


_RULES_SOURCE = [
    ["plus", ["plus", "x", "y"], "z"], ["plus", "x", ["plus", "y", "z"]],
    ["plus", "x", "zero"], ["fix", "x"],
    ["times", "x", ["plus", "y", "z"]], ["plus", ["times", "x", "y"], ["times", "x", "z"]],
    ["times", ["times", "x", "y"], "z"], ["times", "x", ["times", "y", "z"]],
    ["times", "x", "one"], ["fix", "x"],
    ["and", "p", "q"], ["if", "p", ["if", "q", "t", "f"], "f"],
    ["or", "p", "q"], ["if", "p", "t", ["if", "q", "t", "f"]],
    ["not", "p"], ["if", "p", "f", "t"],
    ["implies", "p", "q"], ["if", "p", ["if", "q", "t", "f"], "t"],
    ["if", ["if", "a", "b", "c"], "d", "e"], ["if", "a", ["if", "b", "d", "e"],
                                              ["if", "c", "d", "e"]],
    ["equal", ["plus", "a", "b"], ["plus", "a", "c"]], ["equal", ["fix", "b"], ["fix", "c"]],
    ["lessp", ["plus", "x", "y"], ["plus", "x", "z"]], ["lessp", "y", "z"],
]


def _rule_table():
    table = None  # an alist keyed by the head symbol, as the Scheme program's
    for i in range(0, len(_RULES_SOURCE), 2):
        lhs, rhs = _from_nested(_RULES_SOURCE[i]), _from_nested(_RULES_SOURCE[i + 1])
        entry = _assq(lhs[0], table)
        if entry is None:
            table = ([lhs[0], [(lhs, rhs)]], table)
        else:
            entry[1].append((lhs, rhs))
    return table


def _assq(key, alist):
    while alist is not None:
        pair, alist = alist
        if pair[0] is key:
            return pair
    return None


def _match(pattern, term, bindings):
    if bindings is False:
        return False
    if isinstance(pattern, str):
        b = _assq(pattern, bindings)
        if b is None:
            return ((pattern, term), bindings)
        return bindings if b[1] == term else False
    if isinstance(term, tuple) and pattern[0] is term[0]:
        return _match_args(pattern[1], term[1], bindings)
    return False


def _match_args(patterns, terms, bindings):
    while True:
        if bindings is False:
            return False
        if patterns is None:
            return bindings if terms is None else False
        if terms is None:
            return False
        bindings = _match(patterns[0], terms[0], bindings)
        patterns, terms = patterns[1], terms[1]


def _map(f, lst):
    items = []
    while lst is not None:
        items.append(f(lst[0]))
        lst = lst[1]
    return _plist(*items)


def _substitute(term, bindings):
    if isinstance(term, str):
        b = _assq(term, bindings)
        return b[1] if b is not None else term
    if isinstance(term, tuple):
        return (term[0], _map(lambda t: _substitute(t, bindings), term[1]))
    return term


def _rewrite(term):
    if not isinstance(term, tuple):
        return term
    entry = _assq(term[0], _RULES)
    term = (term[0], _map(_rewrite, term[1]))
    for lhs, rhs in (entry[1] if entry is not None else ()):
        b = _match(lhs, term, None)
        if b is not False:
            return _rewrite(_substitute(rhs, b))
    return term


def _member(x, lst):
    while lst is not None:
        if lst[0] == x:
            return True
        lst = lst[1]
    return False


def _tautology(x, trues, falses):
    if x == "t" or _member(x, trues):
        return True
    if x == "f" or _member(x, falses):
        return False
    if isinstance(x, tuple) and x[0] == "if":
        test, (then, (else_, _)) = x[1][0], x[1][1]
        if test == "t" or _member(test, trues):
            return _tautology(then, trues, falses)
        if test == "f" or _member(test, falses):
            return _tautology(else_, trues, falses)
        return (_tautology(then, (test, trues), falses)
                and _tautology(else_, trues, (test, falses)))
    return False


def _term(n):
    if n == 0:
        return _from_nested(["implies", ["and", "p", "q"], ["or", "q", ["not", "r"]]])
    return _plist("implies", _plist("and", _term(n - 1), _plist("plus", _plist("plus", "a", "b"),
                                                                  "zero")),
                  _plist("or", _term(n - 1),
                         _plist("not", _plist("lessp", _plist("plus", "x", "y"),
                                              _plist("plus", "x", "z")))))


_RULES = _rule_table()


def rewrite():
    return sum(1 for _ in range(1) if _tautology(_rewrite(_term(1)), None, None))


def bytes_round_trips():
    bv = bytearray(97 + i % 26 for i in range(1000))
    ok = 0
    for _ in range(100_000):
        s = bv.decode("utf-8")
        back = bytearray(s.encode("utf-8"))
        part = s[10:len(s) - 10].encode("utf-8")
        ok += 1 if back == bv and len(part) == len(bv) - 20 else 0
    return ok


def _filter(pred, lst):
    items = []
    while lst is not None:
        if pred(lst[0]):
            items.append(lst[0])
        lst = lst[1]
    return _plist(*items)


def _primes_below(n):
    candidates, found = _plist(*range(2, n)), []
    while candidates is not None:
        p = candidates[0]
        candidates = _filter(lambda x, p=p: x % p != 0, candidates[1])
        found.append(p)
    return found


def primes():
    return sum(len(_primes_below(2000)) for _ in range(10))


def vectors():
    n = 10_000
    x = list(range(n))
    y = [0] * n
    for i in range(n - 1, -1, -1):
        y[i] = x[i]
    for _ in range(30):
        for i in range(1, n):
            y[i] = (y[i] + y[i - 1]) % 1000003
    return sum(y)


def _count_iterations(cr, ci, limit):
    zr = zi = 0.0
    n = 0
    while n != limit and zr * zr + zi * zi <= 4.0:
        zr, zi, n = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci, n + 1
    return n


def mbrot():
    size, limit = 40, 200
    return sum(_count_iterations(3.0 * x / size - 2.0, 2.0 * y / size - 1.0, limit)
               for y in range(size) for x in range(size))


def _evaluate(x, env):
    if isinstance(x, str):
        b = _assq(x, env)
        return b[1]
    if not isinstance(x, tuple):
        return x
    head = x[0]
    if head == "quote":
        return x[1][0]
    if head == "if":
        test, (then, (else_, _)) = x[1][0], x[1][1]
        return _evaluate(then, env) if _evaluate(test, env) is not False else \
            _evaluate(else_, env)
    if head == "lambda":
        return ("closure", x[1][0], x[1][1][0], env)
    f = _evaluate(head, env)
    args = []
    rest = x[1]
    while rest is not None:
        args.append(_evaluate(rest[0], env))
        rest = rest[1]
    if callable(f):
        return f(*args)
    _, params, body, closure_env = f
    frame = []
    for arg in args:
        frame.append([params[0], arg])
        params = params[1]
    for binding in reversed(frame):  # the frame in front of the closure's environment
        closure_env = (binding, closure_env)
    return _evaluate(body, closure_env)


def interp():
    env = _plist(["+", lambda a, b: a + b], ["-", lambda a, b: a - b],
                 ["<", lambda a, b: a < b], ["=", lambda a, b: a == b])
    cell = ["fib", False]
    env = (cell, env)
    cell[1] = _evaluate(_from_nested(["lambda", ["n"], ["if", ["<", "n", 2], "n",
                                                         ["+", ["fib", ["-", "n", 1]],
                                                          ["fib", ["-", "n", 2]]]]]), env)
    return _evaluate(_from_nested(["fib", 20]), env)


def _cps_tak(x, y, z, k):
    # returns a bounce (procedure, arguments) instead of calling: Python has no tail calls
    if not y < x:
        return k, (z,)

    def k1(v1):
        def k2(v2):
            def k3(v3):
                return _cps_tak, (v1, v2, v3, k)
            return _cps_tak, (z - 1, x, y, k3)
        return _cps_tak, (y - 1, z, x, k2)
    return _cps_tak, (x - 1, y, z, k1)


def cpstak():
    done = []
    r = _cps_tak(22, 16, 8, lambda a: done.append(a))
    while r is not None:
        f, args = r
        r = f(*args)
    return done[0]


PROGRAMS.update({
    "rewrite": rewrite,
    "bytes": bytes_round_trips,
    "primes": primes,
    "vectors": vectors,
    "mbrot": mbrot,
    "interp": interp,
    "cpstak": cpstak,
})


if __name__ == "__main__":
    # one program in a process of its own (bench/whole_process.py), on a thread with a
    # big stack as harness runs programs
    import threading

    threading.stack_size(512 * 1024 * 1024)
    worker = threading.Thread(target=lambda: print(PROGRAMS[sys.argv[1]]()))
    worker.start()
    worker.join()
