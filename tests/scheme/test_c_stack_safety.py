"""Deep recursion through every procedure that calls back into Scheme must not grow the C
stack: a hook runs on the host's thread (8 MiB stack), and a C-stack overflow would kill
the host. Each case recurses 100,000 deep *through* one primitive, in a subprocess (a
crash must not take pytest down) on a thread with an 8 MiB stack. The cases are shared
out among a few such subprocesses running side by side."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

DEPTH = 100_000
WORKERS = min(4, max(2, os.cpu_count() or 1))  # each needs ~250 MB at the deepest point

# name -> a Scheme expression of n that recurses through the primitive (f is the procedure)
CASES = {
    "trampoline": "(define (f n) (if (= n 0) 0 (+ 1 (g n)))) (define (g n) (f (- n 1)))",
    "apply": "(define (f n) (if (= n 0) 0 (+ 1 (apply f (list (- n 1))))))",
    "apply-rest": "(define (f n . r) (if (= n 0) 0 (+ 1 (apply f (- n 1) 1 2 3 4 5 6 7 8 '(9)))))",
    "call-with-values": "(define (f n) (if (= n 0) 0 (call-with-values (lambda () (f (- n 1))) "
                        "(lambda (x) (+ x 1)))))",
    "call/cc": "(define (f n) (if (= n 0) 0 (+ 1 (call/cc (lambda (k) (f (- n 1)))))))",
    "dynamic-wind": "(define (f n) (if (= n 0) 0 (+ 1 (dynamic-wind (lambda () #f) "
                    "(lambda () (f (- n 1))) (lambda () #f)))))",
    "with-exception-handler": "(define (f n) (if (= n 0) 0 (+ 1 (with-exception-handler "
                              "(lambda (e) 0) (lambda () (f (- n 1)))))))",
    "guard": "(define (f n) (if (= n 0) 0 (+ 1 (guard (e (#t 0)) (f (- n 1))))))",
    "parameterize": "(define p (make-parameter 0)) (define (f n) (if (= n 0) 0 "
                    "(+ 1 (parameterize ((p n)) (f (- n 1))))))",
    "case-lambda": "(define f (case-lambda ((n) (if (= n 0) 0 (+ 1 (f (- n 1) 'x)))) "
                   "((n x) (f n))))",
    "force": "(define (f n) (if (= n 0) 0 (+ 1 (force (delay (f (- n 1)))))))",
    "map": "(define (f n) (if (= n 0) 0 (+ 1 (car (map (lambda (x) (f (- n 1))) '(1))))))",
    "map2": "(define (f n) (if (= n 0) 0 (+ 1 (car (map (lambda (x y) (f (- n 1))) '(1) "
            "'(2))))))",
    "for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (for-each (lambda (x) (set! r "
                "(f (- n 1)))) '(1)) (+ r 1))))",
    "vector-map": "(define (f n) (if (= n 0) 0 (+ 1 (vector-ref (vector-map (lambda (x) "
                  "(f (- n 1))) #(1)) 0))))",
    "vector-for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-for-each (lambda (x) "
                       "(set! r (f (- n 1)))) #(1)) (+ r 1))))",
    "string-for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-for-each (lambda (c) "
                       "(set! r (f (- n 1)))) \"a\") (+ r 1))))",
    "string-map": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-map (lambda (c) "
                  "(set! r (f (- n 1))) c) \"a\") (+ r 1))))",
    "fold": "(define (f n) (if (= n 0) 0 (+ 1 (fold (lambda (x acc) (f (- n 1))) 0 '(1)))))",
    "fold-right": "(define (f n) (if (= n 0) 0 (+ 1 (fold-right (lambda (x acc) (f (- n 1))) "
                  "0 '(1)))))",
    "reduce": "(define (f n) (if (= n 0) 0 (+ 1 (reduce (lambda (x acc) (f (- n 1))) 0 "
              "'(1 2)))))",
    "filter": "(define (f n) (if (= n 0) 0 (let ((r 0)) (filter (lambda (x) (set! r "
              "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "find": "(define (f n) (if (= n 0) 0 (let ((r 0)) (find (lambda (x) (set! r (f (- n 1))) "
            "#t) '(1)) (+ r 1))))",
    "any": "(define (f n) (if (= n 0) 0 (+ 1 (any (lambda (x) (f (- n 1))) '(1)))))",
    "every": "(define (f n) (if (= n 0) 0 (+ 1 (every (lambda (x) (f (- n 1))) '(1)))))",
    "count": "(define (f n) (if (= n 0) 0 (let ((r 0)) (count (lambda (x) (set! r "
             "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "filter-map": "(define (f n) (if (= n 0) 0 (+ 1 (car (filter-map (lambda (x) (f (- n 1))) "
                  "'(1))))))",
    "append-map": "(define (f n) (if (= n 0) 0 (+ 1 (car (append-map (lambda (x) "
                  "(list (f (- n 1)))) '(1))))))",
    "member": "(define (f n) (if (= n 0) 0 (let ((r 0)) (member 1 '(1) (lambda (a b) (set! r "
              "(f (- n 1))) #t)) (+ r 1))))",
    "assoc": "(define (f n) (if (= n 0) 0 (let ((r 0)) (assoc 1 '((1 . 2)) (lambda (a b) "
             "(set! r (f (- n 1))) #t)) (+ r 1))))",
    "list-index": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-index (lambda (x) (set! r "
                  "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "partition": "(define (f n) (if (= n 0) 0 (let ((r 0)) (partition (lambda (x) (set! r "
                 "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "delete-duplicates": "(define (f n) (if (= n 0) 0 (let ((r 0)) (delete-duplicates '(1 2) "
                         "(lambda (a b) (set! r (f (- n 1))) #f)) (+ r 1))))",
    "list-sort": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-sort (lambda (a b) (set! r "
                 "(f (- n 1))) #t) '(1 2)) (+ r 1))))",
    "hash-table-update!": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 (begin "
                          "(hash-table-update!/default h n (lambda (v) (f (- n 1))) 0) "
                          "(+ 1 (hash-table-ref h n)))))",
    "hash-table-ref-thunk": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 "
                            "(+ 1 (hash-table-ref h 'missing (lambda () (f (- n 1)))))))",
    "hash-table-walk": "(define h (make-hash-table)) (hash-table-set! h 1 1) (define (f n) "
                       "(if (= n 0) 0 (let ((r 0)) (hash-table-walk h (lambda (k v) (set! r "
                       "(f (- n 1))))) (+ r 1))))",
    "make-parameter-converter": "(define (f n) (if (= n 0) 0 (+ 1 ((make-parameter n "
                                "(lambda (x) (f (- x 1))))))))",
    # -- lists.py (the linear-update aliases map!, filter!, delete! … share the code) --
    "map-in-order": "(define (f n) (if (= n 0) 0 (+ 1 (car (map-in-order (lambda (x) "
                    "(f (- n 1))) '(1))))))",
    "for-each2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (for-each (lambda (x y) (set! r "
                 "(f (- n 1)))) '(1) '(2)) (+ r 1))))",
    "list-tabulate": "(define (f n) (if (= n 0) 0 (+ 1 (car (list-tabulate 1 (lambda (i) "
                     "(f (- n 1))))))))",
    "list=": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list= (lambda (a b) (set! r "
             "(f (- n 1))) #t) '(1) '(1)) (+ r 1))))",
    "count2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (count (lambda (x y) (set! r "
              "(f (- n 1))) #t) '(1) '(2)) (+ r 1))))",
    "fold2": "(define (f n) (if (= n 0) 0 (+ 1 (fold (lambda (x y acc) (f (- n 1))) 0 '(1) "
             "'(2)))))",
    "fold-right2": "(define (f n) (if (= n 0) 0 (+ 1 (fold-right (lambda (x y acc) "
                   "(f (- n 1))) 0 '(1) '(2)))))",
    "pair-fold": "(define (f n) (if (= n 0) 0 (+ 1 (pair-fold (lambda (p acc) (f (- n 1))) 0 "
                 "'(1)))))",
    "pair-fold-right": "(define (f n) (if (= n 0) 0 (+ 1 (pair-fold-right (lambda (p acc) "
                       "(f (- n 1))) 0 '(1)))))",
    "reduce-right": "(define (f n) (if (= n 0) 0 (+ 1 (reduce-right (lambda (x acc) "
                    "(f (- n 1))) 0 '(1 2)))))",
    "unfold": "(define (f n) (if (= n 0) 0 (+ 1 (car (unfold (lambda (s) (> s 0)) (lambda (s) "
              "(f (- n 1))) (lambda (s) (+ s 1)) 0)))))",
    "unfold-tail-gen": "(define (f n) (if (= n 0) 0 (+ 1 (unfold (lambda (s) #t) (lambda (s) s) "
                       "(lambda (s) s) 0 (lambda (s) (f (- n 1)))))))",
    "unfold-right": "(define (f n) (if (= n 0) 0 (+ 1 (car (unfold-right (lambda (s) (> s 0)) "
                    "(lambda (s) (f (- n 1))) (lambda (s) (+ s 1)) 0)))))",
    "append-map2": "(define (f n) (if (= n 0) 0 (+ 1 (car (append-map (lambda (x y) "
                   "(list (f (- n 1)))) '(1) '(2))))))",
    "pair-for-each": "(define (f n) (if (= n 0) 0 (let ((r 0)) (pair-for-each (lambda (p) "
                     "(set! r (f (- n 1)))) '(1)) (+ r 1))))",
    "filter-map2": "(define (f n) (if (= n 0) 0 (+ 1 (car (filter-map (lambda (x y) "
                   "(f (- n 1))) '(1) '(2))))))",
    "remove": "(define (f n) (if (= n 0) 0 (let ((r 0)) (remove (lambda (x) (set! r "
              "(f (- n 1))) #f) '(1)) (+ r 1))))",
    "find-tail": "(define (f n) (if (= n 0) 0 (let ((r 0)) (find-tail (lambda (x) (set! r "
                 "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "any2": "(define (f n) (if (= n 0) 0 (+ 1 (any (lambda (x y) (f (- n 1))) '(1) '(2)))))",
    "every2": "(define (f n) (if (= n 0) 0 (+ 1 (every (lambda (x y) (f (- n 1))) '(1) "
              "'(2)))))",
    "list-index2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-index (lambda (x y) (set! r "
                   "(f (- n 1))) #t) '(1) '(2)) (+ r 1))))",
    "take-while": "(define (f n) (if (= n 0) 0 (let ((r 0)) (take-while (lambda (x) (set! r "
                  "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "drop-while": "(define (f n) (if (= n 0) 0 (let ((r 0)) (drop-while (lambda (x) (set! r "
                  "(f (- n 1))) #t) '(1)) (+ r 1))))",
    "span": "(define (f n) (if (= n 0) 0 (let ((r 0)) (span (lambda (x) (set! r (f (- n 1))) "
            "#t) '(1)) (+ r 1))))",
    "break": "(define (f n) (if (= n 0) 0 (let ((r 0)) (break (lambda (x) (set! r "
             "(f (- n 1))) #f) '(1)) (+ r 1))))",
    "delete": "(define (f n) (if (= n 0) 0 (let ((r 0)) (delete 1 '(1) (lambda (a b) (set! r "
              "(f (- n 1))) #f)) (+ r 1))))",
    "alist-delete": "(define (f n) (if (= n 0) 0 (let ((r 0)) (alist-delete 1 '((1 . 2)) "
                    "(lambda (a b) (set! r (f (- n 1))) #f)) (+ r 1))))",
    "lset<=": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset<= (lambda (a b) (set! r "
              "(f (- n 1))) #t) '(1) '(1)) (+ r 1))))",
    # lset= and lset-xor call the predicate more than once: recurse on the first call only
    "lset=": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset= (lambda (a b) (if (= r 0) "
             "(set! r (f (- n 1)))) #t) '(1) '(1)) (+ r 1))))",
    "lset-adjoin": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset-adjoin (lambda (a b) "
                   "(set! r (f (- n 1))) #t) '(1) 2) (+ r 1))))",
    "lset-union": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset-union (lambda (a b) (set! r "
                  "(f (- n 1))) #t) '(1) '(2)) (+ r 1))))",
    "lset-intersection": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset-intersection "
                         "(lambda (a b) (set! r (f (- n 1))) #t) '(1) '(2)) (+ r 1))))",
    "lset-difference": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset-difference "
                       "(lambda (a b) (set! r (f (- n 1))) #t) '(1) '(2)) (+ r 1))))",
    "lset-xor": "(define (f n) (if (= n 0) 0 (let ((r 0)) (lset-xor (lambda (a b) (if (= r 0) "
                "(set! r (f (- n 1)))) #t) '(1) '(2)) (+ r 1))))",
    "lset-diff+intersection": "(define (f n) (if (= n 0) 0 (let ((r 0)) "
                              "(lset-diff+intersection (lambda (a b) (set! r (f (- n 1))) #t) "
                              "'(1) '(2)) (+ r 1))))",
    # -- vectors.py --
    "vector-map2": "(define (f n) (if (= n 0) 0 (+ 1 (vector-ref (vector-map (lambda (x y) "
                   "(f (- n 1))) #(1) #(2)) 0))))",
    "vector-for-each2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-for-each (lambda (x y) "
                        "(set! r (f (- n 1)))) #(1) #(2)) (+ r 1))))",
    # -- strings.py --
    "string-map2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-map (lambda (c d) "
                   "(set! r (f (- n 1))) c) \"a\" \"b\") (+ r 1))))",
    "string-for-each2": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-for-each (lambda (c d) "
                        "(set! r (f (- n 1)))) \"a\" \"b\") (+ r 1))))",
    "string-index": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-index \"a\" (lambda (c) "
                    "(set! r (f (- n 1))) #t)) (+ r 1))))",
    "string-rindex": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-rindex \"a\" (lambda (c) "
                     "(set! r (f (- n 1))) #t)) (+ r 1))))",
    "string-count": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-count \"a\" (lambda (c) "
                    "(set! r (f (- n 1))) #t)) (+ r 1))))",
    "string-trim": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-trim \"a\" (lambda (c) "
                   "(if (= r 0) (set! r (f (- n 1)))) #f)) (+ r 1))))",
    "string-trim-left": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-trim-left \"a\" "
                        "(lambda (c) (set! r (f (- n 1))) #f)) (+ r 1))))",
    "string-trim-right": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-trim-right \"a\" "
                         "(lambda (c) (set! r (f (- n 1))) #f)) (+ r 1))))",
    "string-split": "(define (f n) (if (= n 0) 0 (let ((r 0)) (string-split \"a\" (lambda (c) "
                    "(set! r (f (- n 1))) #f)) (+ r 1))))",
    # -- sorting.py (two elements: one comparison; the aliases share the code) --
    "list-sorted?": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-sorted? (lambda (a b) "
                    "(set! r (f (- n 1))) #f) '(1 2)) (+ r 1))))",
    "list-merge": "(define (f n) (if (= n 0) 0 (let ((r 0)) (list-merge (lambda (a b) (set! r "
                  "(f (- n 1))) #f) '(1) '(2)) (+ r 1))))",
    "list-delete-neighbor-dups": "(define (f n) (if (= n 0) 0 (let ((r 0)) "
                                 "(list-delete-neighbor-dups (lambda (a b) (set! r (f (- n 1))) "
                                 "#f) '(1 2)) (+ r 1))))",
    "vector-sort": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-sort (lambda (a b) (set! r "
                   "(f (- n 1))) #t) #(1 2)) (+ r 1))))",
    "vector-sort!": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-sort! (lambda (a b) "
                    "(set! r (f (- n 1))) #t) (vector 1 2)) (+ r 1))))",
    "vector-sorted?": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-sorted? (lambda (a b) "
                      "(set! r (f (- n 1))) #f) #(1 2)) (+ r 1))))",
    "vector-merge": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-merge (lambda (a b) "
                    "(set! r (f (- n 1))) #f) #(1) #(2)) (+ r 1))))",
    "vector-merge!": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-merge! (lambda (a b) "
                     "(set! r (f (- n 1))) #f) (make-vector 2 0) #(1) #(2)) (+ r 1))))",
    "vector-delete-neighbor-dups": "(define (f n) (if (= n 0) 0 (let ((r 0)) "
                                   "(vector-delete-neighbor-dups (lambda (a b) (set! r "
                                   "(f (- n 1))) #f) #(1 2)) (+ r 1))))",
    "vector-delete-neighbor-dups!": "(define (f n) (if (= n 0) 0 (let ((r 0)) "
                                    "(vector-delete-neighbor-dups! (lambda (a b) (set! r "
                                    "(f (- n 1))) #f) (vector 1 2)) (+ r 1))))",
    "vector-find-median": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-find-median "
                          "(lambda (a b) (set! r (f (- n 1))) #t) #(1 2) 0) (+ r 1))))",
    "vector-find-median-mean": "(define (f n) (if (= n 0) 0 (+ 1 (vector-find-median < #(1 2) "
                               "0 (lambda (a b) (f (- n 1)))))))",
    "vector-find-median!": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-find-median! "
                           "(lambda (a b) (set! r (f (- n 1))) #t) (vector 1 2) 0) (+ r 1))))",
    "vector-select!": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-select! (lambda (a b) "
                      "(set! r (f (- n 1))) #t) (vector 1 2) 0) (+ r 1))))",
    "vector-separate!": "(define (f n) (if (= n 0) 0 (let ((r 0)) (vector-separate! "
                        "(lambda (a b) (set! r (f (- n 1))) #t) (vector 1 2) 1) (+ r 1))))",
    "sort": "(define (f n) (if (= n 0) 0 (let ((r 0)) (sort '(1 2) (lambda (a b) (set! r "
            "(f (- n 1))) #t)) (+ r 1))))",
    "sort-key": "(define (f n) (if (= n 0) 0 (let ((r 0)) (sort '(1) < (lambda (x) (set! r "
                "(f (- n 1))) x)) (+ r 1))))",
    "sort-less-and-key": "(define (f n) (if (= n 0) 0 (let ((r 0)) (sort #(1 2) (lambda (a b) "
                         "(set! r (f (- n 1))) #t) (lambda (x) x)) (+ r 1))))",
    # -- hashtables.py --
    "hash-table-update!-proc": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 "
                               "(begin (hash-table-update! h n (lambda (v) (f (- n 1))) "
                               "(lambda () 0)) (+ 1 (hash-table-ref h n)))))",
    "hash-table-update!-thunk": "(define h (make-hash-table)) (define (f n) (if (= n 0) 0 "
                                "(begin (hash-table-update! h n (lambda (v) v) "
                                "(lambda () (f (- n 1)))) (+ 1 (hash-table-ref h n)))))",
    "hash-table-ref-success": "(define h (make-hash-table)) (hash-table-set! h 1 1) "
                              "(define (f n) (if (= n 0) 0 (+ 1 (hash-table-ref h 1 "
                              "(lambda () 0) (lambda (v) (f (- n 1)))))))",
    "hash-table-fold": "(define h (make-hash-table)) (hash-table-set! h 1 1) (define (f n) "
                       "(if (= n 0) 0 (+ 1 (hash-table-fold h (lambda (k v acc) (f (- n 1))) "
                       "0))))",
    "hash-table-equivalence": "(define (f n) (if (= n 0) 0 (let* ((r 0) (h (make-hash-table "
                              "(lambda (a b) (set! r (f (- n 1))) #t)))) (hash-table-set! h 1 1) "
                              "(hash-table-ref/default h 2 #f) (+ r 1))))",
    "hash-table-hash-function": "(define (f n) (if (= n 0) 0 (let* ((r 0) (h (make-hash-table "
                                "(lambda (a b) #t) (lambda (x) (set! r (f (- n 1))) 0)))) "
                                "(hash-table-set! h 1 1) (+ r 1))))",
    # -- charsets.py --
    "char-set-fold": "(import (srfi 14)) (define (f n) (if (= n 0) 0 (+ 1 (char-set-fold "
                     "(lambda (c acc) (f (- n 1))) 0 (char-set #\\a)))))",
    "char-set-filter": "(import (srfi 14)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                       "(char-set-filter (lambda (c) (set! r (f (- n 1))) #t) (char-set #\\a)) "
                       "(+ r 1))))",
    "char-set-unfold": "(import (srfi 14)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                       "(char-set-unfold (lambda (s) (> s 0)) (lambda (s) (set! r (f (- n 1))) "
                       "#\\a) (lambda (s) (+ s 1)) 0) (+ r 1))))",
    "char-set-any": "(import (srfi 14)) (define (f n) (if (= n 0) 0 (+ 1 (char-set-any "
                    "(lambda (c) (f (- n 1))) (char-set #\\a)))))",
    # -- comparators.py --
    "comparator=?": "(import (srfi 128)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                    "(=? (make-comparator number? (lambda (a b) (set! r (f (- n 1))) #t) #f #f) "
                    "1 1) (+ r 1))))",
    "list-comparator": "(import (srfi 128)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                       "(<? (make-list-comparator (make-comparator number? = (lambda (a b) "
                       "(set! r (f (- n 1))) #t) #f) list? null? car cdr) '(1) '(2)) (+ r 1))))",
    "default-registered": "(import (srfi 128)) (define-record-type t (mk) t?) "
                          "(define r 0) (comparator-register-default! (make-comparator t? "
                          "(lambda (a b) (set! r (f (- r 1))) #t) #f #f)) (define (f n) "
                          "(if (= n 0) 0 (begin (set! r n) (=? (make-default-comparator) "
                          "(mk) (mk)) (+ r 1))))",
    "comparator-if<=>": "(import (srfi 128)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                        "(comparator-if<=> (make-comparator number? = (lambda (a b) (set! r "
                        "(f (- n 1))) #t) #f) 1 2 #t #t #t) (+ r 1))))",
    # -- hashtables_srfi125.py --
    "hash-table-unfold": "(import (srfi 125) (srfi 128)) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                         "(hash-table-unfold (lambda (s) (> s 0)) (lambda (s) (set! r "
                         "(f (- n 1))) (values s s)) (lambda (s) (+ s 1)) 0 "
                         "(make-eqv-comparator)) (+ r 1))))",
    "hash-table-map": "(import (srfi 125) (srfi 128)) (define h (make-hash-table)) "
                      "(hash-table-set! h 1 1) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                      "(hash-table-map (lambda (v) (set! r (f (- n 1))) v) "
                      "(make-eqv-comparator) h) (+ r 1))))",
    "hash-table=?": "(import (srfi 125) (srfi 128)) (define h (make-hash-table)) "
                    "(hash-table-set! h 1 1) (define (f n) (if (= n 0) 0 (let ((r 0)) "
                    "(hash-table=? (make-comparator number? (lambda (a b) (set! r (f (- n 1))) "
                    "#t) #f #f) h h) (+ r 1))))",
}

RUNNER = textwrap.dedent("""
    import gc, sys, threading
    from harness.scheme.interpreter import Interpreter
    cases = {cases!r}
    depth = {depth}
    def main():
        # The collector's passes over the objects of 100,000 live levels are most of the
        # run time and have no bearing on the C stack; collect between cases instead.
        gc.disable()
        for name, src in cases.items():
            print("start", name, flush=True)
            interp = Interpreter()
            try:
                value = interp.eval_string(src + f" (f {{depth}})")
                ok = value == depth
            except BaseException as exc:
                ok = False
                value = f"{{type(exc).__name__}}: {{exc}}"
            print("ok" if ok else "bad", name, str(value)[:200], flush=True)
            del interp
            gc.collect()
    threading.stack_size(8 * 1024 * 1024)
    t = threading.Thread(target=main)
    t.start()
    t.join()
""")


def _run_in_workers(cases: dict[str, str]) -> list[tuple[int, list[str]]]:
    """Run the cases in WORKERS subprocesses at once: (exit code, stdout lines) of each."""
    names = list(cases)
    chunks = [names[i::WORKERS] for i in range(WORKERS)]
    procs = [subprocess.Popen([sys.executable, "-c", RUNNER.format(
                 cases={name: cases[name] for name in chunk}, depth=DEPTH)],
                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
             for chunk in chunks if chunk]
    results = []
    try:
        for proc in procs:
            out, _ = proc.communicate(timeout=600)
            results.append((proc.returncode, out.splitlines()))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def test_deep_recursion_through_primitives_does_not_overflow_the_c_stack():
    crashed, bad, started = [], [], []
    for returncode, lines in _run_in_workers(CASES):
        names = [line.split()[1] for line in lines if line.startswith("start ")]
        started += names
        bad += [line for line in lines if line.startswith("bad ")]
        if returncode != 0 and names:
            crashed.append(f"{names[-1]} (exit {returncode})")
    assert not crashed, f"crashed recursing through {', '.join(crashed)}"
    assert not bad, "\n".join(bad)
    assert sorted(started) == sorted(CASES)
