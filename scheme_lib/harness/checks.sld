;; (harness checks): the argument checks of the procedures harness writes in Scheme, so
;; that their errors read like every primitive's: `fold: expected a procedure, got 5`.
;; WHO is the procedure's name (a symbol); each check returns the value it accepted.
;; The checks are syntax, not procedures: a call costs nothing when the argument is good.
;; The error itself is raised by (harness checks core) (control.py), which writes the
;; value shortened as the primitives do.
(define-library (harness checks)
  (export wrong-type check-arg check-procedure check-list check-count)
  (import (scheme base) (rename (harness checks core) (raise-wrong-type wrong-type)))
  (begin
    ;; (wrong-type WHO EXPECTED VALUE): raise `WHO: expected EXPECTED, got VALUE`.

    ;; VALUE when (PRED VALUE) is true, else the error naming EXPECTED ("a string").
    (define-syntax check-arg
      (syntax-rules ()
        ((_ who pred expected value)
         (let ((x value)) (if (pred x) x (wrong-type who expected x))))))

    (define-syntax check-procedure
      (syntax-rules ()
        ((_ who value) (check-arg who procedure? "a procedure" value))))

    ;; A proper list: finite, ending in ().
    (define-syntax check-list
      (syntax-rules ()
        ((_ who value) (check-arg who list? "a proper list" value))))

    (define-syntax check-count
      (syntax-rules ()
        ((_ who value) (check-arg who count? "a non-negative exact integer" value))))

    (define (count? k) (and (exact-integer? k) (>= k 0)))))
