"""The primitives that resume continuations, timed in two source trees side by side.

    python bench/resumable_primitives.py OLD_TREE [NEW_TREE] [--rounds N] [--only a,b]

Each tree (a checkout of harness, e.g. a ``git worktree add`` of an older commit; NEW_TREE
defaults to this one) runs the same programs in its own process, the trees taking turns
for ``--rounds`` rounds; the best CPU time of each program in each tree is printed with the
ratio new/old. The programs: guards with and without else (catching and not), a handler
of raise-continuable, SRFI 1 filters and searches over 1,000 elements with a Scheme
predicate, sorts of 2,000 numbers with a Scheme ordering (shuffled, sorted, reversed) and
with a key, a merge, the unfolds and list-tabulate, SRFI 69 walks over 1,000 entries,
1,000 hash-table-update!s and -update!/defaults, a merge of 1,000 entries into a copy of
500 and SRFI 125's intersection and difference of the two, SRFI 14 walks over 1,000
characters, SRFI 130 searches and
trims of 1,000-character strings (and 10,000 searches of 10 characters, and by a
character), a split of 600 characters by a predicate, the R7RS vector and string walks
(vector-map, vector-for-each, string-map, string-for-each) over 1,000 and (10,000 times)
10 elements, 1,000 parameterizes with and without a converter, and
SRFI 1's deletions and set operations over 50-element lists with a Scheme compare
procedure (and one with eqv?: the loops alone), SRFI 132's -sorted? checks,
merges and delete-neighbor-dups over 1,000-4,000 elements, medians and selections of 2,000,
1,000 comparator-if<=>s with a comparator of Scheme procedures, and the SRFI 14
and SRFI 125 unfolds of 1,000 elements, 1,000 lookups and stores in a table with a Scheme
equality and hash procedure (16 keys a bucket), 1,000 lookups in an equal? table, list=
over 1,000 elements, a bitwise-unfold of 1,000 bits and 1,000 <=? with a comparator of
Scheme procedures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# SETUP is not timed: its last line has the procedures written in Scheme compiled (when
# first referenced), so that their first program does not time that
SETUP = """(import (srfi 1) (srfi 132) (srfi 151) (srfi 128))
(define l (iota 1000)) (define l2 (iota 1000 1)) (define (p x) (odd? x))
(define (late x) (> x 990)) (define (lt a b) (< a b))
(define shuffled (let loop ((i 0) (s 7) (acc '())) (if (= i 2000) acc
  (loop (+ i 1) (modulo (+ (* s 1103515245) 12345) 2147483648) (cons s acc)))))
(define up (iota 2000)) (define down (reverse up))
(import (srfi 14) (srfi 69)
        (only (srfi 125) hash-table-unfold hash-table-intersection! hash-table-difference!))
(define ht (make-hash-table equal?))
(for-each (lambda (i) (hash-table-set! ht i i)) (iota 1000))
(define half (make-hash-table equal?))
(for-each (lambda (i) (hash-table-set! half i i)) (iota 500))
(define cs (ucs-range->char-set 0 1000))
(define text (make-string 1000 #\\a)) (define padded (string-append (make-string 500 #\\space)
  "x" (make-string 500 #\\space)))
(define (blank? c) (char=? c #\\space))
(define pc (make-parameter 0 (lambda (x) x))) (define pp (make-parameter 0))
(define s50 (iota 50)) (define s50b (iota 50 25)) (define (same a b) (eqv? a b))
(define al (map (lambda (i) (cons (modulo i 10) i)) l))
(define vshuffled (list->vector shuffled)) (define vup (list->vector up))
(define hc (make-hash-table same (lambda (x . bound) (modulo x 64))))
(for-each (lambda (i) (hash-table-set! hc i i)) (iota 1000))
(define sc (make-comparator number? same lt #f))
(define vl (list->vector l)) (define vdups (list->vector (map (lambda (i) (quotient i 2)) l)))
(define vdst (make-vector 4000 0))
(define v10 (list->vector (iota 10))) (define v1000 (list->vector l))
(define t10 (make-string 10 #\\a)) (define (up c) (char-upcase c))
(define words (apply string-append (make-list 100 "word, ")))
(define written-in-scheme (list string-index string-rindex string-count string-split string-trim
  string-trim-left string-trim-right vector-for-each string-for-each))"""

PROGRAMS = {
    "guard-else-catch": "(guard (e ((string? e) 1) (else 2)) (raise 'x))",
    "guard-else": "(guard (e (else 2)) 1)",
    "guard-no-else": "(guard (e ((string? e) 2)) 1)",
    "handler": "(with-exception-handler (lambda (e) 1) (lambda () (raise-continuable 'x)))",
    "filter": "(filter p l)", "remove": "(remove p l)", "partition": "(partition p l)",
    "count": "(count p l)", "count-2-lists": "(count (lambda (x y) (p x)) l l2)",
    "filter-map": "(filter-map p l)", "append-map": "(append-map list l)",
    "delete": "(delete 5 l (lambda (a b) (= a b)))",
    "find": "(find late l)", "find-tail": "(find-tail late l)", "any": "(any late l)",
    "any-2-lists": "(any (lambda (x y) (late x)) l l2)", "every": "(every (lambda (x) (< x 990)) l)",
    "list-index": "(list-index late l)",
    "sort-shuffled": "(list-sort lt shuffled)", "sort-sorted": "(list-sort lt up)",
    "sort-reversed": "(list-sort lt down)",
    "sort-key": "(sort shuffled < (lambda (x) x))", "list-merge": "(list-merge lt up up)",
    "unfold": "(unfold (lambda (x) (> x 999)) (lambda (x) x) (lambda (x) (+ x 1)) 0)",
    "unfold-right": "(unfold-right (lambda (x) (> x 999)) (lambda (x) x) (lambda (x) (+ x 1)) 0)",
    "list-tabulate": "(list-tabulate 1000 (lambda (i) i))",
    "ht-walk": "(hash-table-walk ht (lambda (k v) v))",
    "ht-fold": "(hash-table-fold ht (lambda (k v acc) acc) 0)",
    "ht-update!": "(do ((i 0 (+ i 1))) ((= i 1000)) (hash-table-update! ht i (lambda (v) v)))",
    "ht-update!/default": "(do ((i 0 (+ i 1))) ((= i 1000)) "
                          "(hash-table-update!/default ht i (lambda (v) v) 0))",
    "ht-merge!": "(hash-table-merge! (hash-table-copy half) ht)",
    "ht-intersection!": "(hash-table-intersection! (hash-table-copy ht) half)",
    "ht-difference!": "(hash-table-difference! (hash-table-copy ht) half)",
    "char-set-count": "(char-set-count (lambda (c) #t) cs)",
    "char-set-fold": "(char-set-fold (lambda (c acc) acc) 0 cs)",
    "string-index": "(string-index text (lambda (c) #f))",
    "string-count": "(string-count text (lambda (c) #t))",
    "string-trim": "(string-trim padded blank?)",
    "string-trim-left": "(string-trim-left padded blank?)",
    "string-trim-right": "(string-trim-right padded blank?)",
    "string-rindex": "(string-rindex text (lambda (c) #f))",
    "string-split": "(string-split words (lambda (c) (char=? c #\\,)))",
    "string-index-10": "(string-index t10 (lambda (c) #f))",
    "string-index-char": "(string-index text #\\b)",
    "vector-for-each": "(vector-for-each p v1000)", "vector-for-each-10": "(vector-for-each p v10)",
    "vector-map": "(vector-map p v1000)", "vector-map-10": "(vector-map p v10)",
    "string-for-each": "(string-for-each up text)", "string-for-each-10": "(string-for-each up t10)",
    "string-map": "(string-map up text)", "string-map-10": "(string-map up t10)",
    "parameterize": "(do ((i 0 (+ i 1))) ((= i 1000)) (parameterize ((pp i)) (pp)))",
    "param-converter": "(do ((i 0 (+ i 1))) ((= i 1000)) (parameterize ((pc i)) (pc)))",
    "delete-duplicates": "(delete-duplicates s50 same)",
    "alist-delete": "(alist-delete 5 al same)",
    "lset<=": "(lset<= same s50 s50)", "lset-adjoin": "(apply lset-adjoin same s50 s50b)",
    "lset-union": "(lset-union same s50 s50b)",
    "lset-intersection": "(lset-intersection same s50 s50b)",
    "lset-inter-eqv?": "(lset-intersection eqv? s50 s50b)",
    "lset-difference": "(lset-difference same s50 s50b)", "lset-xor": "(lset-xor same s50 s50b)",
    "list-sorted?": "(list-sorted? lt up)", "vector-sorted?": "(vector-sorted? lt vup)",
    "find-median": "(vector-find-median lt vshuffled 0)",
    "neighbor-dups": "(list-delete-neighbor-dups same l)",
    "vector-merge": "(vector-merge lt vup vup)", "vector-merge!": "(vector-merge! lt vdst vup vup)",
    "find-median!": "(vector-find-median! lt (vector-copy vshuffled) 0)",
    "vector-select!": "(vector-select! lt (vector-copy vshuffled) 1000)",
    "vector-separate!": "(vector-separate! lt (vector-copy vshuffled) 1000)",
    "vector-neighbor-dups": "(vector-delete-neighbor-dups same vdups)",
    "vector-neighbor-dups!": "(vector-delete-neighbor-dups! same (vector-copy vdups))",
    "comparator-if<=>": "(do ((i 0 (+ i 1))) ((= i 1000)) (comparator-if<=> sc i 500 1 2 3))",
    "char-set-unfold": "(char-set-unfold (lambda (x) (> x 999)) integer->char "
                       "(lambda (x) (+ x 1)) 0)",
    "ht-own-ref": "(do ((i 0 (+ i 1))) ((= i 1000)) (hash-table-ref/default hc i #f))",
    "ht-own-set!": "(do ((i 0 (+ i 1))) ((= i 1000)) (hash-table-set! hc i i))",
    "ht-ref": "(do ((i 0 (+ i 1))) ((= i 1000)) (hash-table-ref/default ht i #f))",
    "list=": "(list= same l l)",
    "comparator<=?": "(do ((i 0 (+ i 1))) ((= i 1000)) (<=? sc i i (+ i 1)))",
    "bitwise-unfold": "(bitwise-unfold (lambda (i) (= i 1000)) odd? (lambda (i) (+ i 1)) 0)",
    "ht-unfold": "(hash-table-unfold (lambda (x) (> x 999)) (lambda (x) (values x x)) "
                 "(lambda (x) (+ x 1)) 0 equal?)",
}

RUNNER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from harness.scheme.interpreter import Interpreter
interp = Interpreter()
interp.eval_string(sys.argv[2])
for line in sys.stdin:
    name, _, src = line.rstrip("\\n").partition(" ")
    t0 = time.process_time()
    interp.eval_string(src)
    print(name, time.process_time() - t0, flush=True)
"""


def _repeat(name: str) -> int:
    if name.startswith(("guard", "handler")):
        return 5000
    return 10_000 if name.endswith(("-10", "-char")) else 100


def run_tree(tree: str, names: list[str]) -> dict[str, float]:
    """One round of the programs ``names`` in ``tree`` (each repeated in a loop: _repeat)."""
    lines = "".join(f"{name} (let loop ((n 0)) (if (< n {_repeat(name)}) (begin "
                    f"{PROGRAMS[name]} (loop (+ n 1)))))\n" for name in names)
    out = subprocess.run([sys.executable, "-c", RUNNER, tree, SETUP], input=lines,
                         capture_output=True, text=True, check=True).stdout
    return {name: float(t) for name, t in (row.split() for row in out.splitlines())}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("old")
    parser.add_argument("new", nargs="?", default=str(HERE.parent))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", default="", help="comma-separated name prefixes to run")
    args = parser.parse_args()
    prefixes = tuple(p for p in args.only.split(",") if p)
    names = [n for n in PROGRAMS if not prefixes or n.startswith(prefixes)]
    best: dict[str, dict[str, float]] = {args.old: {}, args.new: {}}
    for _ in range(args.rounds):
        for tree in (args.old, args.new):
            for name, t in run_tree(tree, names).items():
                best[tree][name] = min(t, best[tree].get(name, t))
    print(f"best of {args.rounds} (CPU ms; 5,000 runs of a guard or handler, 10,000 of a -10 "
          f"or -char, 100 of the rest)\n{'program':18} {'old':>8} {'new':>8}"
          f" {'new/old':>8}")
    for name in names:
        old, new = best[args.old][name] * 1000, best[args.new][name] * 1000
        print(f"{name:18} {old:8.1f} {new:8.1f} {new / old:8.2f}")


if __name__ == "__main__":
    main()
