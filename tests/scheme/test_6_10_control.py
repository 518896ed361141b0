"""R7RS 6.10: procedures, apply, map, call/cc, values, dynamic-wind."""

import pytest

CASES = [
    ("(procedure? car)", "#t"),
    ("(procedure? 'car)", "#f"),
    ("(procedure? (lambda (x) (* x x)))", "#t"),
    ("(procedure? '(lambda (x) (* x x)))", "#f"),
    ("(call-with-current-continuation procedure?)", "#t"),
    ("(apply + (list 3 4))", "7"),
    ("(define compose (lambda (f g) (lambda args (f (apply g args))))) ((compose sqrt *) 12 75)",
     "30"),
    ("(apply list 1 2 '(3))", "(1 2 3)"),
    ("(map cadr '((a b) (d e) (g h)))", "(b e h)"),
    ("(map + '(1 2 3) '(10 20 30))", "(11 22 33)"),
    ("(let ((count 0)) (map (lambda (ignored) (set! count (+ count 1)) count) '(a b)))",
     "(1 2)") if False else ("(map (lambda (x y) (* x y)) '(1 2 3) '(4 5))", "(4 10)"),
    (("(let ((v (make-vector 5))) (for-each (lambda (i) (vector-set! v i (* i i))) "
     "'(0 1 2 3 4)) v)"), "#(0 1 4 9 16)"),
    ("(string-map char-upcase \"abc\")", '"ABC"'),
    ("(vector-map cadr '#((a b) (d e)))", "#(b e)"),
    (("(call-with-current-continuation (lambda (exit) (for-each (lambda (x) (if (negative? x) "
     "(exit x))) '(54 0 37 -3 245 19)) #t))"), "-3"),
    (("(define list-length (lambda (obj) (call-with-current-continuation (lambda (return) "
     "(letrec ((r (lambda (obj) (cond ((null? obj) 0) ((pair? obj) (+ (r (cdr obj)) 1)) "
     "(else (return #f)))))) (r obj)))))) (list (list-length '(1 2 3 4)) "
     "(list-length '(a b . c)))"), "(4 #f)"),
    ("(call-with-values (lambda () (values 4 5)) (lambda (a b) b))", "5"),
    ("(call-with-values * -)", "-1"),
    ("(+ 1 (call/cc (lambda (k) (+ 10 (k 1)))))", "2"),
    ("(call/cc (lambda (k) (k 1 2)))", "1 2"),
    (("(let ((path '()) (c #f)) (let ((add (lambda (s) (set! path (cons s path))))) "
     "(dynamic-wind (lambda () (add 'connect)) (lambda () (add (call/cc (lambda (c0) "
     "(set! c c0) 'talk1)))) (lambda () (add 'disconnect))) (reverse path)))"),
     "(connect talk1 disconnect)"),
    (("(let ((out '())) (call/cc (lambda (k) (dynamic-wind (lambda () (set! out (cons 'in out)))"
     " (lambda () (k 'x)) (lambda () (set! out (cons 'out out)))))) (reverse out))"),
     "(in out)"),
    (("(let ((out '())) (guard (e (#t (reverse (cons e out)))) (dynamic-wind (lambda () #f) "
     "(lambda () (raise 'boom)) (lambda () (set! out (cons 'after out))))))"), "(after boom)"),
    ("(values 1)", "1"),
]


@pytest.mark.parametrize("src,expected", CASES)
def test_control(scheme, src, expected):
    assert scheme(src) == expected


# -- re-entrant continuations --------------------------------------------------------------

REENTRY = [
    # the continuation of a top-level form ends with that form
    ("(define r #f) (+ 1 (call/cc (lambda (k) (set! r k) 1))) (r 5)", "6"),
    # re-entering a dynamic-wind runs its before thunk again, leaving it its after thunk
    (("(let ((path '()) (c #f)) (let ((add (lambda (s) (set! path (cons s path))))) "
      "(dynamic-wind (lambda () (add 'connect)) (lambda () (add (call/cc (lambda (c0) "
      "(set! c c0) 'talk1)))) (lambda () (add 'disconnect))) (if (< (length path) 4) "
      "(c 'talk2) (reverse path))))"),
     "(connect talk1 disconnect connect talk2 disconnect)"),
    # operands evaluated before a call/cc keep their values; set! variables are shared
    (("(define r #f) (define a #f) (define b #f) (define c #f) (define i 0) "
      "(let () (set! r (+ 1 (+ 2 (+ 3 (call/cc (lambda (k) (set! a k) 4)))) "
      "(+ 5 (+ 6 (call/cc (lambda (k) (set! b k) 7)))))) (if (not c) (set! c a)) "
      "(set! i (+ i 1)) (case i ((1) (a 5)) ((2) (b 8)) ((3) (a 6)) ((4) (c 4))) r)"), "28"),
    (("(let ((n 0) (k #f)) (call/cc (lambda (c) (set! k c))) (set! n (+ n 1)) "
      "(if (< n 3) (k 'again)) n)"), "3"),
    # map builds a fresh list on each return: earlier results are not changed
    (("(let ((k #f) (n 0) (results '())) (let ((r (map (lambda (x) (call/cc (lambda (c) "
      "(if (= x 2) (set! k c)) x))) '(1 2 3)))) (set! results (cons r results)) "
      "(set! n (+ n 1)) (if (< n 3) (k (* 10 n))) results))"),
     "((1 20 3) (1 10 3) (1 2 3))"),
    # re-entry inside a named-let loop, a guard, a parameterize, a call-with-values
    (("(let ((k #f) (acc '()) (done #f)) (let loop ((i 0)) (when (< i 3) (call/cc (lambda (c) "
      "(when (= i 1) (set! k c)))) (set! acc (cons i acc)) (loop (+ i 1)))) "
      "(unless done (set! done #t) (k #f)) (reverse acc))"), "(0 1 2 1 2)"),
    (("(define kk #f) (guard (e (#t (list 'caught e))) (let ((v (call/cc (lambda (c) "
      "(set! kk c) 1)))) (if (< v 3) (kk (+ v 1)) (raise v))))"), "(caught 3)"),
    (("(define p (make-parameter 1)) (let ((k #f) (seen '())) (parameterize ((p 2)) "
      "(call/cc (lambda (c) (set! k c))) (set! seen (cons (p) seen))) "
      "(set! seen (cons (p) seen)) (if (< (length seen) 4) (k #f)) seen)"), "(1 2 1 2)"),
    (("(let ((k #f) (n 0)) (let ((r (call-with-values (lambda () (values 1 (call/cc "
      "(lambda (c) (set! k c) 2)))) list))) (set! n (+ n 1)) (if (< n 2) (k 20)) r))"),
     "(1 20)"),
    # escaping still works, inside and outside re-entered code
    ("(+ 1 (call/cc (lambda (k) (+ 2 (k 3)))))", "4"),
]


@pytest.mark.parametrize("src,expected", REENTRY)
def test_reentering_a_continuation(scheme, src, expected):
    assert scheme(src) == expected


# Re-entry through each higher-order primitive: a continuation kept from inside the
# procedure a primitive calls (on the element 2) is re-entered twice, with 10 and 20.
def _reentered(call: str) -> str:
    return ("(let ((k #f) (n 0)) (let ((r " + call + ")) (set! n (+ n 1)) "
            "(if (< n 3) (k (* 10 n)) r)))")


KEEP = "(lambda (x) (call/cc (lambda (c) (if (equal? x 2) (set! k c)) x)))"
KEEP2 = "(lambda (x y) (call/cc (lambda (c) (if (equal? x 2) (set! k c)) (+ x y))))"
BELOW_15 = f"(lambda (x) (< ({KEEP} x) 15))"
KEEP_CHAR = "(lambda (ch) (call/cc (lambda (c) (if (char=? ch #\\b) (set! k c)) ch)))"

THROUGH_PRIMITIVES = [
    (f"(map {KEEP} '(1 2 3))", "(1 20 3)"),
    # the one- and two-element maps (an evaluator's arguments) take a shorter path
    (f"(map {KEEP} '(2))", "(20)"),
    (f"(map {KEEP} '(1 2))", "(1 20)"),
    (f"(map {KEEP} '(2 3))", "(20 3)"),
    (f"(map {KEEP2} '(1 2 3) '(10 20 30))", "(11 20 33)"),
    ((f"(let ((acc '())) (for-each (lambda (x y) (set! acc (cons ({KEEP2} x y) acc))) "
     "'(1 2 3) '(1 1 1)) acc)"), "(4 20 4 10 4 3 2)"),
    (f"(vector-map {KEEP} #(1 2 3))", "#(1 20 3)"),
    (f"(vector-map {KEEP2} #(1 2 3) #(10 20 30))", "#(11 20 33)"),
    ((f"(let ((acc '())) (string-for-each (lambda (ch) (set! acc (cons ({KEEP_CHAR} ch) acc))) "
     "\"abc\") acc)"), "(#\\c 20 #\\c 10 #\\c #\\b #\\a)"),
    ((f"(let ((acc '())) (string-for-each (lambda (a b) (set! acc (cons ({KEEP_CHAR} a) acc))) "
     "\"abc\" \"xyz\") acc)"), "(#\\c 20 #\\c 10 #\\c #\\b #\\a)"),
    (f"(string-map (lambda (ch) (let ((r ({KEEP_CHAR} ch))) (if (char? r) r #\\z))) \"abc\")",
     "\"azc\""),
    # the before thunk of a dynamic-wind, the handler of a raise-continuable
    ((f"(let ((z #f)) (dynamic-wind (lambda () (if (not z) (set! z ({KEEP} 2)))) "
     "(lambda () z) (lambda () #f)))"), "20"),
    (f"(with-exception-handler (lambda (e) ({KEEP} e)) (lambda () (+ 1 (raise-continuable 2))))",
     "21"),
    (f"(member 2 '(1 2 3) (lambda (a b) (and ({KEEP} b) (= a b))))", "(2 3)"),
    (f"(assoc 2 '((1 . a) (2 . b)) (lambda (a b) (and ({KEEP} b) (= a b))))", "(2 . b)"),
    (f"(call-with-port (open-input-string \"x\") (lambda (p) ({KEEP} 2)))", "20"),
    (f"(call-with-output-string (lambda (port) (write ({KEEP} 2) port)))", "\"21020\""),
    (f"(with-output-to-string (lambda () (write ({KEEP} 2))))", "\"21020\""),
    # SRFI 1 folds and reductions (the accumulator as it was at the capture)
    (f"(fold (lambda (x acc) (cons ({KEEP} x) acc)) '() '(1 2 3))", "(3 20 1)"),
    (f"(fold-right (lambda (x acc) (cons ({KEEP} x) acc)) '() '(1 2 3))", "(1 20 3)"),
    (f"(fold (lambda (x y acc) (+ ({KEEP} x) y acc)) 0 '(1 2 3) '(1 1 1))", "27"),
    (f"(reduce (lambda (x acc) (+ ({KEEP} x) acc)) 0 '(1 2 3))", "24"),
    (f"(reduce-right (lambda (x acc) (+ ({KEEP} x) acc)) 0 '(1 2 3))", "24"),
    # SRFI 1 filters, searches and the maps that build lists (below 15: true once, then 10
    # and 20 for the element 2)
    (f"(filter {BELOW_15} '(1 2 3))", "(1 3)"),
    (f"(remove {BELOW_15} '(1 2 3))", "(2)"),
    (f"(call-with-values (lambda () (partition {BELOW_15} '(1 2 3))) list)", "((1 3) (2))"),
    (f"(count {BELOW_15} '(1 2 3))", "2"),
    (f"(count (lambda (x y) ({BELOW_15} x)) '(1 2 3) '(a b c))", "2"),
    (f"(delete 15 '(1 2 3) (lambda (a b) (< ({KEEP} b) a)))", "(2)"),
    (f"(filter-map (lambda (x) (let ((v ({KEEP} x))) (and (< v 15) v))) '(1 2 3))", "(1 3)"),
    (f"(filter-map (lambda (x y) (let ((v ({KEEP} x))) (and (< v 15) y))) '(1 2 3) '(a b c))",
     "(a c)"),
    (f"(append-map (lambda (x) (list ({KEEP} x))) '(1 2 3))", "(1 20 3)"),
    (f"(find (lambda (x) (not ({BELOW_15} x))) '(1 2 3))", "2"),
    (f"(find-tail (lambda (x) (not ({BELOW_15} x))) '(1 2 3))", "(2 3)"),
    (f"(any (lambda (x) (let ((v ({KEEP} x))) (and (> v 15) v))) '(1 2 3))", "20"),
    (f"(any (lambda (x y) (let ((v ({KEEP} x))) (and (> v 15) (list v y)))) '(1 2 3) '(a b c))",
     "(20 b)"),
    (f"(every {BELOW_15} '(1 2 3))", "#f"),
    (f"(every (lambda (x y) ({BELOW_15} x)) '(1 2 3) '(a b c))", "#f"),
    (f"(list-index (lambda (x) (not ({BELOW_15} x))) '(1 2 3))", "1"),
    (f"(list-index (lambda (x y) (not ({BELOW_15} x))) '(1 2 3) '(a b c))", "1"),
    # a promise keeps the value of the force that finished first (R7RS 4.2.5)
    (f"(let ((p (delay ({KEEP} 2)))) (list (force p)))", "(2)"),
    (f"(force (delay-force (delay ({KEEP} 2))))", "2"),
    # SRFI 1's unfolds (each of their procedures) and list-tabulate
    (f"(unfold (lambda (x) (> x 3)) {KEEP} (lambda (x) (+ x 1)) 1)", "(1 20 3)"),
    (f"(unfold (lambda (x) (> ({KEEP} x) 3)) (lambda (x) x) (lambda (x) (+ x 1)) 1)", "(1)"),
    (f"(unfold (lambda (x) (> x 3)) (lambda (x) x) (lambda (x) ({KEEP} (+ x 1))) 0)", "(0 1)"),
    (f"(unfold (lambda (x) (> x 1)) (lambda (x) x) (lambda (x) (+ x 1)) 1 {KEEP})", "(1 . 20)"),
    (f"(unfold-right (lambda (x) (> x 3)) {KEEP} (lambda (x) (+ x 1)) 1)", "(3 20 1)"),
    (f"(unfold-right (lambda (x) (> ({KEEP} x) 3)) (lambda (x) x) (lambda (x) (+ x 1)) 1)",
     "(1)"),
    (f"(unfold-right (lambda (x) (> x 3)) (lambda (x) x) (lambda (x) ({KEEP} (+ x 1))) 0)",
     "(1 0)"),
    (f"(list-tabulate 4 {KEEP})", "(0 1 20 3)"),
    # SRFI 1's prefix splits and pair walks
    (f"(take-while (lambda (x) (< ({KEEP} x) 15)) '(1 2 3))", "(1)"),
    (f"(drop-while (lambda (x) (< ({KEEP} x) 15)) '(1 2 3))", "(2 3)"),
    (f"(call-with-values (lambda () (span (lambda (x) (< ({KEEP} x) 15)) '(1 2 3))) list)",
     "((1) (2 3))"),
    (f"(call-with-values (lambda () (break (lambda (x) (> ({KEEP} x) 15)) '(1 2 3))) list)",
     "((1) (2 3))"),
    (f"(pair-fold (lambda (p acc) (cons ({KEEP} (car p)) acc)) '() '(1 2 3))", "(3 20 1)"),
    (f"(pair-fold-right (lambda (p acc) (cons ({KEEP} (car p)) acc)) '() '(1 2 3))",
     "(1 20 3)"),
    ((f"(let ((acc '())) (pair-for-each (lambda (p) (set! acc (cons ({KEEP} (car p)) acc))) "
      "'(1 2 3)) acc)"), "(3 20 3 10 3 2 1)"),
    # sort's key, the merges, vector-select!
    (f"(sort '(3 1 2) < {KEEP})", "(1 3 2)"),
    (f"(list-merge (lambda (a b) (< ({KEEP} a) b)) '(1 3) '(2 4))", "(1 3 2 4)"),
    (f"(vector-merge (lambda (a b) (< ({KEEP} a) b)) #(1 3) #(2 4))", "#(1 3 2 4)"),
    ((f"(let ((v (make-vector 4 0))) (vector-merge! (lambda (a b) (< ({KEEP} a) b)) v #(1 3) "
      "#(2 4)) v)"), "#(1 3 2 4)"),
    (f"(vector-select! (lambda (a b) (< ({KEEP} a) b)) (vector 1 2) 0)", "1"),
    # SRFI 69 hash tables
    ((f"(let ((h (make-hash-table equal?)) (acc '())) (hash-table-set! h 2 'b) "
      f"(hash-table-walk h (lambda (key v) (set! acc (cons ({KEEP} key) acc)))) acc)"), "(20 10 2)"),
    ((f"(let ((h (make-hash-table equal?))) (hash-table-set! h 1 'a) (hash-table-set! h 2 'b) "
      f"(hash-table-fold h (lambda (key v acc) (+ ({KEEP} key) acc)) 0))"), "21"),
    ((f"(let ((h (make-hash-table equal?))) (hash-table-update! h 'x (lambda (v) (+ v 1)) "
      f"(lambda () ({KEEP} 2))) (hash-table-ref h 'x))"), "21"),
    ((f"(let ((h (make-hash-table equal?))) (hash-table-update! h 'x {KEEP} (lambda () 2)) "
      "(hash-table-ref h 'x))"), "20"),
    ((f"(let ((h (make-hash-table equal?))) (hash-table-update!/default h 'x {KEEP} 2) "
      "(hash-table-ref/default h 'x #f))"), "20"),
    (f"(hash-table-ref (make-hash-table equal?) 'x (lambda () ({KEEP} 2)))", "20"),
    # SRFI 130 string searches, splits and trims
    (f"(string-index \"abc\" (lambda (c) (number? ({KEEP_CHAR} c))))", "1"),
    (f"(string-rindex \"abc\" (lambda (c) (number? ({KEEP_CHAR} c))))", "1"),
    (f"(string-count \"abc\" (lambda (c) (char? ({KEEP_CHAR} c))))", "2"),
    (f"(string-split \"abc\" (lambda (c) (number? ({KEEP_CHAR} c))))", "(\"a\" \"c\")"),
    (f"(string-trim-left \"abc\" (lambda (c) (or (char=? c #\\a) (number? ({KEEP_CHAR} c)))))",
     "\"c\""),
    (f"(string-trim-right \"abc\" (lambda (c) (or (char=? c #\\c) (number? ({KEEP_CHAR} c)))))",
     "\"a\""),
    (f"(string-trim \"abc\" (lambda (c) (or (char=? c #\\a) (number? ({KEEP_CHAR} c)))))",
     "\"c\""),
    (f"(string-trim \"abc\" (lambda (c) (or (char=? c #\\c) (number? ({KEEP_CHAR} c)))))",
     "\"a\""),
    # a parameter's converter (parameterize runs the converters first)
    (f"(let ((p (make-parameter 1 (lambda (x) ({KEEP} x))))) (parameterize ((p 2)) (p)))", "20"),
    ((f"(let ((p (make-parameter 1 (lambda (x) ({KEEP} x)))) (q (make-parameter 'q))) "
      "(parameterize ((q 'inner) (p 2)) (list (p) (q))))"), "(20 inner)"),
]

THROUGH_SRFI_14 = [
    (f"(char-set-fold (lambda (c acc) (cons ({KEEP_CHAR} c) acc)) '() (char-set #\\a #\\b #\\c))",
     "(#\\c 20 #\\a)"),
    ((f"(let ((acc '())) (char-set-for-each (lambda (ch) (set! acc (cons ({KEEP_CHAR} ch) acc))) "
      "(char-set #\\a #\\b #\\c)) acc)"), "(#\\c 20 #\\c 10 #\\c #\\b #\\a)"),
    ((f"(char-set->list (char-set-map (lambda (c) (let ((r ({KEEP_CHAR} c))) (if (char? r) r "
      "#\\z))) (char-set #\\a #\\b #\\c)))"), "(#\\a #\\c #\\z)"),
    ((f"(char-set->list (char-set-filter (lambda (c) (char? ({KEEP_CHAR} c))) "
      "(char-set #\\a #\\b #\\c)))"), "(#\\a #\\c)"),
    (f"(char-set-count (lambda (c) (char? ({KEEP_CHAR} c))) (char-set #\\a #\\b #\\c))", "2"),
    ((f"(char-set-any (lambda (c) (let ((r ({KEEP_CHAR} c))) (and (number? r) r))) "
      "(char-set #\\a #\\b #\\c))"), "20"),
    (f"(char-set-every (lambda (c) (char? ({KEEP_CHAR} c))) (char-set #\\a #\\b #\\c))", "#f"),
]

# SRFI 125's walks (the table has the keys 1 and 2, in that order)
TABLE = "(let ((h (make-hash-table equal?))) (hash-table-set! h 1 'a) (hash-table-set! h 2 'b) h)"
THROUGH_SRFI_125 = [
    ((f"(hash-table-find (lambda (key v) (let ((r ({KEEP} key))) (and (> r 5) r))) {TABLE} "
      "(lambda () 'none))"), "20"),
    (f"(hash-table-find (lambda (key v) #f) {TABLE} (lambda () ({KEEP} 2)))", "20"),
    (f"(hash-table-count (lambda (key v) (< ({KEEP} key) 5)) {TABLE})", "1"),
    (f"(hash-table-map->list (lambda (key v) ({KEEP} key)) {TABLE})", "(1 20)"),
    ((f"(let ((acc '())) (hash-table-for-each (lambda (key v) (set! acc (cons ({KEEP} key) acc))) "
      f"{TABLE}) acc)"), "(20 10 2 1)"),
    ((f"(let ((h {TABLE})) (hash-table-prune! (lambda (key v) (> ({KEEP} key) 5)) h) "
      "(hash-table-keys h))"), "(1)"),
    (f"(let ((h {TABLE})) (hash-table-intern! h 3 (lambda () ({KEEP} 2))))", "20"),
    ((f"(let ((h (hash-table-map (lambda (v) ({KEEP} (if (eq? v 'b) 2 v))) "
      f"(make-equal-comparator) {TABLE}))) (hash-table-ref/default h 2 #f))"), "20"),
    ((f"(let ((h {TABLE})) (hash-table-map! (lambda (key v) ({KEEP} key)) h) "
      "(hash-table-ref/default h 2 #f))"), "20"),
]


@pytest.mark.parametrize("call,expected", THROUGH_PRIMITIVES)
def test_reentry_through_a_primitive(scheme, call, expected):
    assert scheme(_reentered(call)) == expected


@pytest.mark.parametrize("call,expected", THROUGH_SRFI_125)
def test_reentry_through_a_srfi_125_walk(scheme, call, expected):
    scheme("(import (srfi 125) (srfi 128))")
    assert scheme(_reentered(call)) == expected


@pytest.mark.parametrize("call,expected", THROUGH_SRFI_14)
def test_reentry_through_a_char_set_walk(scheme, call, expected):
    scheme("(import (srfi 14))")
    assert scheme(_reentered(call)) == expected


def test_reentered_walks_build_their_own_results(scheme):
    # as map: what a run returned before a re-entry stays as it was
    src = ("(let ((k #f) (n 0) (results '())) (let ((r {0})) (set! results (cons r results)) "
           "(set! n (+ n 1)) (if (< n 3) (k (* 10 n))) results))")
    assert scheme(src.format(f"(list-tabulate 3 {KEEP})")) == "((0 1 20) (0 1 10) (0 1 2))"
    assert scheme(src.format(f"(unfold (lambda (x) (> x 3)) {KEEP} (lambda (x) (+ x 1)) 1)")) \
        == "((1 20 3) (1 10 3) (1 2 3))"
    scheme("(import (srfi 14))")
    assert scheme(src.format("(char-set->list (char-set-filter (lambda (c) (char? "
                             f"({KEEP_CHAR} c))) (char-set #\\a #\\b #\\c)))")) == \
        "((#\\a #\\c) (#\\a #\\c) (#\\a #\\b #\\c))"


def test_reentered_map_leaves_earlier_results_alone(scheme):
    # R7RS 6.10: map must not be affected by re-entry; vector-map and string-map alike
    src = ("(let ((k #f) (n 0) (results '())) (let ((r ({0} (lambda (x) (call/cc (lambda (c) "
           "(if (equal? x {1}) (set! k c)) x))) {2}))) (set! results (cons r results)) "
           "(set! n (+ n 1)) (if (< n 3) (k {3})) results))")
    assert scheme(src.format("vector-map", 2, "#(1 2 3)", "(* 10 n)")) == \
        "(#(1 20 3) #(1 10 3) #(1 2 3))"
    assert scheme(src.format("string-map", "#\\b", "\"abc\"", "#\\z")) == \
        "(\"azc\" \"azc\" \"abc\")"


def test_reentered_filters_leave_earlier_results_alone(scheme):
    src = ("(let ((k #f) (n 0) (results '())) (let ((r (call-with-values (lambda () ({0} "
           "(lambda (x) (< (call/cc (lambda (c) (if (= x 2) (set! k c)) x)) 15)) (list 1 2 3 2)))"
           " list))) (set! results (cons r results)) (set! n (+ n 1)) (if (< n 3) (k (* 10 n)))"
           " results))")
    # k is kept at the last 2: re-entered with 20, it is left out, the first 2 still in
    assert scheme(src.format("filter")) == "(((1 2 3)) ((1 2 3 2)) ((1 2 3 2)))"
    assert scheme(src.format("partition")) == \
        "(((1 2 3) (2)) ((1 2 3 2) ()) ((1 2 3 2) ()))"
    assert scheme(src.format("remove")) == "(((2)) (()) (()))"


def test_a_filter_of_a_long_list_reentered_past_its_first_chunk(scheme):
    # filter checks a list longer than a chunk when its walk reaches the chunk's end; a
    # continuation taken after that (at 1500) and re-entered resumes the rest of the walk
    src = ("(let ((k #f) (n 0) (results '())) "
           "(let ((r (length (filter (lambda (x) (if (= x 1500) "
           "(call/cc (lambda (c) (set! k c) #t)) (even? x))) (iota 3000))))) "
           "(set! results (cons r results)) (set! n (+ n 1)) (if (< n 3) (k (= n 1))) "
           "results))")
    # newest first: 1500 kept the first time (#t), kept again (#t), then left out (#f)
    assert scheme(src) == "(1499 1500 1500)"


def test_a_filter_reentered_after_its_predicate_spoiled_the_list_reports_it(scheme):
    # at 1 the predicate makes the list (1 2 . 9); k is taken at 2: both the first pass and
    # the re-entry end in the error, not in a list
    src = ("(let ((xs (list 1 2 3)) (k #f) (n 0) (results '())) "
           "(let ((r (guard (e (#t (error-object-message e))) "
           "(filter (lambda (x) (if (= x 1) (set-cdr! (cdr xs) 9)) "
           "(if (= x 2) (call/cc (lambda (c) (set! k c)))) #t) xs)))) "
           "(set! results (cons r results)) (set! n (+ n 1)) (if (< n 2) (k #t)) results))")
    error = '"filter: expected a proper list, got (1 2 . 9)"'
    assert scheme(src) == f"({error} {error})"


def test_a_forced_promise_resumed_in_its_body_keeps_its_first_value(scheme):
    assert scheme("(define k #f) (define p (delay (call/cc (lambda (c) (set! k c) 1)))) "
                  "(define first (force p)) (define n 0) (set! n (+ n 1)) "
                  "(if (< n 2) (k 2)) (list first (force p))") == "(1 1)"


def test_reentry_into_a_dynamic_wind_after_thunk(scheme):
    assert scheme("(let ((k #f) (n 0) (log '())) (dynamic-wind (lambda () #f) (lambda () 'body) "
                  "(lambda () (call/cc (lambda (c) (set! k c))) (set! log (cons 'after log)))) "
                  "(set! n (+ n 1)) (if (< n 3) (k #f)) log)") == "(after after after)"


GENERATORS = """
(define (make-generator walk)       ; walk calls its argument on each element
  (define return #f)
  (define resume #f)
  (lambda ()
    (call/cc (lambda (r)
      (set! return r)
      (if resume
          (resume #f)
          (begin (walk (lambda (x) (call/cc (lambda (k) (set! resume k) (return x)))))
                 (return 'done)))))))
(define (tree-walk tree f)
  (cond ((null? tree) #t)
        ((pair? tree) (tree-walk (car tree) f) (tree-walk (cdr tree) f))
        (else (f tree))))
(define (same-fringe? a b)
  (let ((ga (make-generator (lambda (f) (tree-walk a f))))
        (gb (make-generator (lambda (f) (tree-walk b f)))))
    (let loop ()
      (let ((x (ga)) (y (gb)))
        (cond ((not (eqv? x y)) #f) ((eq? x 'done) #t) (else (loop)))))))
"""


def test_generators_and_coroutines(scheme):
    scheme(GENERATORS)
    assert scheme("(define g (make-generator (lambda (f) (for-each f '(a b c))))) "
                  "(list (g) (g) (g) (g) (g))") == "(a b c done done)"
    assert scheme("(list (same-fringe? '(1 (2 3) 4) '((1 2) (3 4))) "
                  "(same-fringe? '(1 2 3) '(1 (3 2))))") == "(#t #f)"


def test_a_generator_over_a_vector(scheme):
    scheme(GENERATORS)
    assert scheme("(define g (make-generator (lambda (f) (vector-for-each f #(1 2 3))))) "
                  "(list (g) (g) (g) (g))") == "(1 2 3 done)"
    assert scheme("(define g2 (make-generator (lambda (f) (vector-for-each "
                  "(lambda (a b) (f (+ a b))) #(1 2) #(10 20 30))))) (list (g2) (g2) (g2))") \
        == "(11 22 done)"


def test_backtracking_with_amb(scheme):
    scheme("""
    (define fail-stack '())
    (define (fail)
      (if (null? fail-stack)
          (error "no more choices")
          (let ((k (car fail-stack))) (set! fail-stack (cdr fail-stack)) (k 'retry))))
    (define (amb choices)
      (call/cc (lambda (k)
        (for-each (lambda (c) (call/cc (lambda (next) (set! fail-stack (cons next fail-stack))
                                                      (k c))))
                  choices)
        (fail))))""")
    assert scheme("(let* ((a (amb '(1 2 3 4))) (b (amb '(1 2 3 4)))) "
                  "(if (not (= (+ a b) 7)) (fail)) (list a b))") == "(3 4)"
    assert scheme("(set! fail-stack '()) (let ((x (amb '(1 2 3 4 5 6)))) (if (< x 5) (fail)) x)") \
        == "5"
    # a choice point left from an earlier form re-enters that form's continuation: its
    # value becomes this form's value
    assert scheme("(fail)") == "6"
    assert "no more choices" in scheme.error("(set! fail-stack '()) (let ((x (amb '(1 2)))) "
                                             "(fail))")


def test_a_continuation_kept_from_inside_a_primitive_that_cannot_resume_it(scheme):
    # escaping out of the equality of a pair comparator's car comparator works;
    # re-entering it says what is in the way
    scheme("(import (srfi 128)) (define (any? x) #t) (define (pairs same) "
           "(make-pair-comparator (make-comparator any? same #f #f) (make-default-comparator)))")
    assert scheme("(call/cc (lambda (k) (=? (pairs (lambda (a b) (k 'out))) '(1) '(2))))") \
        == "out"
    msg = scheme.error("(define vk #f) (=? (pairs (lambda (a b) (call/cc (lambda (c) "
                       "(set! vk c) #t)))) '(1) '(2)) (vk 5)")
    assert ("this continuation cannot be re-entered: it was captured inside a procedure that "
            "make-pair-comparator made (it cannot resume it)") in msg
    assert "1:" in msg  # with the position of the call


@pytest.mark.parametrize("after", ["(k 'escaped)", "(error \"in after\")", "(k2 'again)"])
def test_an_after_thunk_cannot_cancel_a_limit_error(after):
    from harness.scheme.errors import StepLimitExceeded
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.limits import Budget
    interp = Interpreter(tier="sandboxed")
    interp.eval_string("(define k2 #f) (call/cc (lambda (c) (set! k2 c)))")
    with Budget(steps=20_000, seconds=5), pytest.raises(StepLimitExceeded):
        interp.eval_string(f"(call/cc (lambda (k) (dynamic-wind (lambda () #f) "
                           f"(lambda () (let loop () (loop))) (lambda () {after}))))")


def test_reentry_is_charged_to_the_step_budget():
    from harness.scheme.errors import StepLimitExceeded
    from harness.scheme.interpreter import Interpreter
    from harness.scheme.limits import Budget
    interp = Interpreter(tier="sandboxed")
    with Budget(steps=20_000, seconds=5), pytest.raises(StepLimitExceeded):
        interp.eval_string("(let ((k #f)) (call/cc (lambda (c) (set! k c))) (k 1))")


@pytest.mark.parametrize("src,message", [
    ("(apply + 1 2)", "apply: expected a proper list"),
    ("(apply +)", "apply: expected a procedure and a list of arguments, got no list"),
    ("(define (f) (apply +)) (f)", "got no list"),
    ("(apply 5 '(1))", "non-procedure"),
    ("(5 3)", "attempt to apply non-procedure"),
    ("(call-with-values (lambda () (values 1 2)) (lambda (a) a))", "expected 1 argument, got 2"),
])
def test_control_errors(scheme, src, message):
    assert message in scheme.error(src)


# A sort with a Scheme ordering resumes in the comparison it was in: found runs, the check
# that two runs are in order, a merge. The comparison (less a b) is kept the first time and
# re-entered with #f, then #t.
@pytest.mark.parametrize("items,a,b,second", [
    ("(3 1 2 5 4)", 1, 3, "(3 1 2 4 5)"),  # reading the runs: 3 1 is then a run in order
    ("(5 1 4 2 3)", 2, 5, "(1 3 5 2 4)"),  # (1 5) and (2 4) said to be in order
    ("(5 1 4 2 3)", 3, 4, "(1 2 4 3 5)"),  # merging (1 2 4 5) with (3)
])
@pytest.mark.parametrize("sort", ["(list-sort {less} (list {items}))",
                                  "(vector->list (vector-sort {less} (vector {items})))",
                                  "(sort (list {items}) {less})"])
def test_reentry_through_a_sort(scheme, sort, items, a, b, second):
    less = (f"(lambda (x y) (if (and (= x {a}) (= y {b}) (not k)) (call/cc (lambda (c) "
            f"(set! k c) (< x y))) (< x y)))")
    call = sort.format(less=less, items=items[1:-1])
    src = (f"(let ((k #f) (n 0) (results '())) (let ((r {call})) (set! results (cons r "
           "results)) (set! n (+ n 1)) (if (< n 3) (k (= n 2)) (reverse results))))")
    assert scheme(src) == f"((1 2 3 4 5) {second} (1 2 3 4 5))"


def test_sort_keeps_equal_elements_in_order_and_takes_n_comparisons_on_runs(scheme):
    assert scheme("(list-sort (lambda (a b) (< (car a) (car b))) "
                  "'((1 . a) (0 . b) (1 . c) (0 . d)))") == "((0 . b) (0 . d) (1 . a) (1 . c))"
    count = ("(let ((n 0)) (list-sort (lambda (a b) (set! n (+ n 1)) (< a b)) {}) n)")
    assert scheme(count.format("(iota 100)")) == "99"
    assert scheme(count.format("(reverse (iota 100))")) == "99"
