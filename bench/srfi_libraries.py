"""What SRFI 14 char-sets and SRFI 128 comparators cost, side by side in one run.

    python bench/srfi_libraries.py [--rounds N]

Each pair runs the same Scheme loop in a sandboxed environment (step counting on), the
variants taking turns in every round; the best round of each is kept (the least
disturbed one), and the ratio of the two is printed:

* ``char-set-contains?`` on ``char-set:letter`` (~660 ranges) against ``char-alphabetic?``
  (each in a lambda),
  and against a one-range set (a bisect costs the same whatever the size of the set),
  over a 20,000-character text;
* a hash table made from the default comparator (its procedures called from Python)
  against an ``equal?`` table (a dict), 5,000 string keys set then read;
* ``list-sort`` with the default comparator's ordering predicate against ``<``, 5,000
  numbers;
* ``=?`` with the default comparator against ``equal?`` on two equal 100,000-element
  lists.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from harness.scheme.interpreter import Interpreter

SETUP = """
(import (scheme char-set) (scheme comparator) (scheme hash-table) (scheme sort))
(define text (let ((s (make-string 20000)))
  (do ((i 0 (+ i 1))) ((= i 20000) s)
    (string-set! s i (string-ref "Lorem ipsum, dolor sit amet 42; Grüße λ!" (modulo i 40))))))
(define one-range (ucs-range->char-set 97 123))
(define (count-if pred)
  (let loop ((i 0) (n 0))
    (if (= i (string-length text)) n
        (loop (+ i 1) (if (pred (string-ref text i)) (+ n 1) n)))))
(define keys (map (lambda (i) (number->string (* i 7919))) (iota 5000)))
(define (fill-and-read table)
  (for-each (lambda (k) (hash-table-set! table k 1)) keys)
  (let loop ((ks keys) (n 0)) (if (null? ks) n (loop (cdr ks) (+ n (hash-table-ref table (car ks)))))))
(define numbers (map (lambda (i) (modulo (* i 7919) 10007)) (iota 5000)))
(define long-a (iota 100000))
(define long-b (iota 100000))
(define default (make-default-comparator))
(define default< (comparator-ordering-predicate default))
"""

PAIRS = {
    "char-set-contains? letter vs char-alphabetic?": (
        "(count-if (lambda (c) (char-set-contains? char-set:letter c)))",
        "(count-if (lambda (c) (char-alphabetic? c)))"),
    "char-set-contains? letter vs one-range set": (
        "(count-if (lambda (c) (char-set-contains? char-set:letter c)))",
        "(count-if (lambda (c) (char-set-contains? one-range c)))"),
    "hash table: default comparator vs equal?": (
        "(fill-and-read (make-hash-table default))",
        "(fill-and-read (make-hash-table equal?))"),
    "list-sort: default ordering vs <": (
        "(list-sort default< numbers)",
        "(list-sort < numbers)"),
    "=? default vs equal? (100,000 elements)": (
        "(=? default long-a long-b)",
        "(equal? long-a long-b)"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    interp = Interpreter(tier="sandboxed")
    interp.eval_string(SETUP)
    interp.eval_string("(char-set-contains? char-set:letter #\\a)")  # read Unicode once
    print(f"{'pair':48} {'first ms':>9} {'second ms':>10} {'ratio':>6}")
    for name, (first, second) in PAIRS.items():
        best = [float("inf"), float("inf")]
        for _ in range(args.rounds):
            for i, src in enumerate((first, second)):
                t0 = time.perf_counter()
                interp.eval_string(src)
                best[i] = min(best[i], time.perf_counter() - t0)
        print(f"{name:48} {best[0] * 1e3:9.2f} {best[1] * 1e3:10.2f} "
              f"{best[0] / best[1]:6.2f}")
    from harness.scheme.unicode_sets import _category_table
    t0 = time.perf_counter()
    _category_table.__wrapped__()  # what the first use of a Unicode set in a process pays
    print(f"reading the general category of every code point (once per process): "
          f"{(time.perf_counter() - t0) * 1e3:.0f} ms")

if __name__ == "__main__":
    main()
