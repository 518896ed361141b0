;; Loaded before each bench program when bench/whole_process.py runs chibi-scheme
;; (--chibi).  The chibi-scheme measured there is built from source without its module
;; library files (bench/README.md says how), so programs run in its core environment;
;; these are the few names the programs use that the core environment lacks.  Each is
;; the plain implementation (the byte conversions call the C primitives of that build).
(define (iota count . o)
  (let ((start (if (pair? o) (car o) 0))
        (step (if (and (pair? o) (pair? (cdr o))) (cadr o) 1)))
    (let lp ((i (- count 1)) (res '()))
      (if (< i 0) res (lp (- i 1) (cons (+ start (* i step)) res))))))
(define (filter pred ls)
  (let lp ((ls ls) (res '()))
    (cond ((null? ls) (reverse! res))
          ((pred (car ls)) (lp (cdr ls) (cons (car ls) res)))
          (else (lp (cdr ls) res)))))
(define (string->utf8 s . o)
  (%string->utf8 s (if (pair? o) (car o) 0)
                 (if (and (pair? o) (pair? (cdr o))) (cadr o) #f)))
(define (utf8->string bv . o)
  (%utf8->string bv (if (pair? o) (car o) 0)
                 (if (and (pair? o) (pair? (cdr o))) (cadr o) #f)))
(define (caddr x) (car (cdr (cdr x))))
(define (cdddr x) (cdr (cdr (cdr x))))
(define (cadddr x) (car (cdr (cdr (cdr x)))))
