;; SRFI 128: comparators (also (scheme comparator)).
;;
;; The comparator record, its constructors and the hash functions are native, in
;; (srfi 128 core) (harness/scheme/primitives/comparators.py): hash tables and sorts read a
;; comparator's procedures from Python. The default comparator, comparator-if<=> and the
;; parameters each importing environment has its own of are added to this library's
;; exports at each import (libraries.OWN_STATE: comparator_syntax.py,
;; default_comparator.py); comparator-if<=> expands into code that calls the comparator's
;; procedures itself, so it too counts their steps and resumes a continuation captured in
;; them. The procedures that call a comparator's procedures (=?, <?,
;; >?, <=?, >=?, comparator-test-type, -check-type, -hash) are here, in Scheme, so they
;; count their steps, run in the sandbox and resume a continuation captured in the
;; procedure they call with nothing written for it.
(define-library (srfi 128)
  (export
   ;; from (srfi 128 core)
   comparator? comparator-ordered? comparator-hashable? comparator-type-test-predicate
   comparator-equality-predicate comparator-ordering-predicate comparator-hash-function
   make-comparator make-pair-comparator make-list-comparator make-vector-comparator
   boolean-hash char-hash char-ci-hash symbol-hash number-hash string-hash string-ci-hash
   ;; written here
   comparator-test-type comparator-check-type comparator-hash =? <? >? <=? >=?)
  (import (scheme base) (srfi 128 core) (harness checks))
  (begin
    (define-syntax check-comparator
      (syntax-rules ()
        ((_ who value) (check-arg who comparator? "a comparator" value))))

    (define (comparator-test-type c obj)
      ((comparator-type-test-predicate (check-comparator 'comparator-test-type c)) obj))

    ;; #t if OBJ satisfies the comparator's type test, else an error naming OBJ.
    (define (comparator-check-type c obj)
      (if ((comparator-type-test-predicate (check-comparator 'comparator-check-type c)) obj)
          #t
          (wrong-type 'comparator-check-type "an object of the comparator's type" obj)))

    ;; What the comparator's hash function returns for OBJ (unchecked, as SRFI 128 says:
    ;; the hash tables and combinators check it where they use it).
    (define (comparator-hash c obj)
      (if (comparator-hashable? (check-comparator 'comparator-hash c))
          ((comparator-hash-function c) obj)
          (error "comparator-hash: the comparator has no hash function" c)))

    ;; Whether TEST holds of X and Y for each object and the next, from A and B on (a
    ;; loop per predicate: a procedure for the relation measured 1.5x slower). Two objects
    ;; are compared without the loop, which is a closure made on each call that reaches it.
    (define-syntax chain
      (syntax-rules ()
        ((_ (x y) test a b more)
         (let ((x a) (y b))
           (and test
                (or (null? more)
                    (let loop ((x y) (y (car more)) (rest (cdr more)))
                      (and test (if (pair? rest) (loop y (car rest) (cdr rest)) #t)))))))))

    ;; (=? comparator obj1 obj2 obj3 ...): each object equal to the next.
    (define (=? c a b . more)
      (let ((same (comparator-equality-predicate (check-comparator '=? c))))
        (chain (x y) (same x y) a b more)))

    (define (<? c a b . more)
      (let ((less (ordering-of '<? c)))
        (chain (x y) (less x y) a b more)))

    (define (>? c a b . more)
      (let ((less (ordering-of '>? c)))
        (chain (x y) (less y x) a b more)))

    ;; The ordering first, the equality when it says no.
    (define (<=? c a b . more)
      (let ((less (ordering-of '<=? c)) (same (comparator-equality-predicate c)))
        (chain (x y) (or (less x y) (same x y)) a b more)))

    (define (>=? c a b . more)
      (let ((less (ordering-of '>=? c)) (same (comparator-equality-predicate c)))
        (chain (x y) (or (less y x) (same x y)) a b more)))))
