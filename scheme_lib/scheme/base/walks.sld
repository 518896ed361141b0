;; The procedures of (scheme base) that walk a vector or a string calling a procedure of
;; the program, written in Scheme: (scheme base) exports them (libraries.SCHEME_WRITTEN)
;; and this library is loaded when a program first refers to one of them. Compiled by
;; harness's own compiler, they count their steps, run in the sandbox and resume a
;; continuation captured in the procedure they call with nothing written for it.
;; Over several vectors or strings they stop at the shortest; two are walked without
;; apply (a recursion through the procedure then takes fewer Python frames a level: see
;; tests/scheme/test_c_stack_safety.py). Measurements: harness/scheme/primitives/vectors.py.
(define-library (scheme base walks)
  (export vector-for-each string-for-each)
  (import (except (scheme base) vector-for-each string-for-each) (harness checks))
  (begin
    (define-syntax check-vector
      (syntax-rules ()
        ((_ who value) (check-arg who vector? "a vector" value))))

    (define (shortest who vectors)
      (let loop ((vs vectors) (n #f))
        (if (pair? vs)
            (let ((k (vector-length (check-vector who (car vs)))))
              (loop (cdr vs) (if (and n (< n k)) n k)))
            n)))

    ;; The elements at I of VECTORS. (A procedure of its own: a loop whose variable a
    ;; lambda captures would cost every call of vector-for-each a trampoline.)
    (define (elements vectors i)
      (if (pair? vectors)
          (cons (vector-ref (car vectors) i) (elements (cdr vectors) i))
          '()))

    (define (vector-for-each f v . vs)
      (check-procedure 'vector-for-each f)
      (cond ((null? vs)
             (let ((n (vector-length (check-vector 'vector-for-each v))))
               (let loop ((i 0))
                 (when (< i n)
                   (f (vector-ref v i))
                   (loop (+ i 1))))))
            ((null? (cdr vs))
             (let ((w (car vs)) (n (shortest 'vector-for-each (list v (car vs)))))
               (let loop ((i 0))
                 (when (< i n)
                   (f (vector-ref v i) (vector-ref w i))
                   (loop (+ i 1))))))
            (else
             (let* ((all (cons v vs)) (n (shortest 'vector-for-each all)))
               (let loop ((i 0))
                 (when (< i n)
                   (apply f (elements all i))
                   (loop (+ i 1))))))))

    ;; The characters of each string, as lists (taken when the walk starts).
    (define (char-lists who strings)
      (map (lambda (s) (string->list (check-arg who string? "a string" s))) strings))

    (define (string-for-each f s . ss)
      (check-procedure 'string-for-each f)
      (cond ((null? ss)
             (let loop ((cs (string->list (check-arg 'string-for-each string? "a string" s))))
               (when (pair? cs)
                 (f (car cs))
                 (loop (cdr cs)))))
            ((null? (cdr ss))
             (let* ((lists (char-lists 'string-for-each (list s (car ss)))))
               (let loop ((a (car lists)) (b (cadr lists)))
                 (when (and (pair? a) (pair? b))
                   (f (car a) (car b))
                   (loop (cdr a) (cdr b))))))
            (else
             (let loop ((lists (char-lists 'string-for-each (cons s ss))))
               (when (every-pair? lists)
                 (apply f (map car lists))
                 (loop (map cdr lists)))))))

    (define (every-pair? lists)
      (or (null? lists) (and (pair? (car lists)) (every-pair? (cdr lists)))))))
