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
    while i != 5_000_000:
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
