;; SRFI 132: sort libraries (also (scheme sort)).
;;
;; The sorts are native, in (srfi 132 core) (harness/scheme/primitives/sorting.py): a
;; merge sort with a Scheme `less` measured 3.5x slower written in Scheme, so it stays a
;; Python loop with its resume record, as chibi-scheme keeps its sort in C. So do the
;; vector merges, vector-sorted? and the vector neighbour-dups deletions, which measured
;; 2.4-9x slower here (sorting.py's docstring has the numbers). The list merges, the
;; list-sorted? check, the list neighbour-dups deletions, the medians and the selections
;; (a native sort, then Scheme) are here, in Scheme: compiled by harness's own compiler,
;; they count their steps, run in the sandbox and resume a continuation captured in the
;; procedure they call with nothing written for it. Each builds its result from fresh
;; pairs, so a re-entered continuation gives what a fresh run would give, and the
;; results returned before stay as they were.
(define-library (srfi 132)
  (export
   ;; from (srfi 132 core)
   list-sort list-stable-sort list-sort! list-stable-sort! vector-sort vector-stable-sort
   vector-sort! vector-stable-sort! sort vector-sorted? vector-merge vector-merge!
   vector-delete-neighbor-dups vector-delete-neighbor-dups!
   ;; written here
   list-sorted? list-merge list-merge! list-delete-neighbor-dups list-delete-neighbor-dups!
   vector-find-median vector-find-median! vector-select! vector-separate!)
  (import (scheme base) (srfi 132 core) (only (srfi 1 core) append-reverse) (harness checks))
  (begin
    ;; -- arguments ------------------------------------------------------------------------
    (define-syntax check-vector
      (syntax-rules ()
        ((_ who value) (check-arg who vector? "a vector" value))))

    (define (fail who what . irritants)
      (apply error (string-append (symbol->string who) ": " what) irritants))

    (define (index who k)
      (check-arg who exact-integer? "an exact integer index" k))

    ;; The optional START of a range of V (N elements): 0 when OPT has none.
    (define (start-of who v n opt)
      (if (pair? opt)
          (let ((s (index who (car opt))))
            (if (<= 0 s n) s (fail who "start index out of range" v s)))
          0))

    ;; The optional END after START: N when OPT has none.
    (define (end-of who v n s opt)
      (if (pair? opt)
          (let ((e (index who (car opt))))
            (if (<= s e n) e (fail who "end index out of range" v e)))
          n))

    ;; (with-range who v opt (s e) body ...): S and E the range [start, end) of the vector
    ;; V that the optional arguments OPT give.
    (define-syntax with-range
      (syntax-rules ()
        ((_ who v opt (s e) body ...)
         (let* ((n (vector-length (check-vector who v)))
                (s (start-of who v n opt))
                (e (end-of who v n s (if (pair? opt) (cdr opt) '()))))
           body ...))))

    ;; OPT, the optional arguments after FIXED required ones, unless there are more than
    ;; MOST of them: then the error a native procedure's call with too many gives.
    (define (optional who opt fixed most)
      (let ((n (length opt)))
        (if (> n most)
            (fail who (string-append "expected " (number->string fixed) " to "
                                     (number->string (+ fixed most)) " arguments, got "
                                     (number->string (+ fixed n))))
            opt)))

    ;; -- merges ---------------------------------------------------------------------------
    ;; The stable merge of the lists XS and YS (on ties, the element of XS first), its end
    ;; the rest of the list that lasts longer.
    (define (merge less xs ys)
      (let loop ((xs xs) (ys ys) (acc '()))
        (cond ((not (pair? xs)) (append-reverse acc ys))
              ((not (pair? ys)) (append-reverse acc xs))
              ((less (car ys) (car xs)) (loop xs (cdr ys) (cons (car ys) acc)))
              (else (loop (cdr xs) ys (cons (car xs) acc))))))

    (define (list-merge less xs ys)
      (merge (check-procedure 'list-merge less) (check-list 'list-merge xs)
             (check-list 'list-merge ys)))

    (define (list-merge! less xs ys)
      (merge (check-procedure 'list-merge! less) (check-list 'list-merge! xs)
             (check-list 'list-merge! ys)))

    ;; -- -sorted? -------------------------------------------------------------------------
    (define (list-sorted? less lst)
      (check-procedure 'list-sorted? less)
      (let ((lst (check-list 'list-sorted? lst)))
        (or (null? lst)
            (let loop ((a (car lst)) (rest (cdr lst)))
              (if (pair? rest)
                  (let ((b (car rest))) (if (less b a) #f (loop b (cdr rest))))
                  #t)))))

    ;; -- neighbour dups -------------------------------------------------------------------
    ;; The first element of each run of neighbours of LST equal under (same earlier later).
    (define (without-dups same lst)
      (if (pair? lst)
          (let loop ((last (car lst)) (rest (cdr lst)) (acc (list (car lst))))
            (if (pair? rest)
                (let ((x (car rest)))
                  (if (same last x) (loop last (cdr rest) acc) (loop x (cdr rest) (cons x acc))))
                (reverse acc)))
          '()))

    (define (list-delete-neighbor-dups same lst)
      (without-dups (check-procedure 'list-delete-neighbor-dups same)
                    (check-list 'list-delete-neighbor-dups lst)))

    (define (list-delete-neighbor-dups! same lst)
      (without-dups (check-procedure 'list-delete-neighbor-dups! same)
                    (check-list 'list-delete-neighbor-dups! lst)))

    ;; -- medians and selection ------------------------------------------------------------
    ;; The middle element of the sorted vector V (MEAN of the middle two; KNIL if none).
    (define (median who v knil mean)
      (let* ((n (vector-length v)) (mid (quotient n 2)))
        (cond ((= n 0) knil)
              ((odd? n) (vector-ref v mid))
              ((pair? mean)
               ((check-procedure who (car mean)) (vector-ref v (- mid 1)) (vector-ref v mid)))
              (else (let ((a (vector-ref v (- mid 1))) (b (vector-ref v mid)))
                      (check-arg who number? "a number (or pass a mean procedure)" a)
                      (check-arg who number? "a number (or pass a mean procedure)" b)
                      (/ (+ a b) 2))))))

    ;; (vector-find-median < v knil [mean])
    (define (vector-find-median less v knil . mean)
      (check-procedure 'vector-find-median less)
      (let ((mean (optional 'vector-find-median mean 3 1)))
        (median 'vector-find-median (vector-sort less (check-vector 'vector-find-median v))
                knil mean)))

    ;; Like vector-find-median, leaving V sorted.
    (define (vector-find-median! less v knil . mean)
      (check-procedure 'vector-find-median! less)
      (let ((mean (optional 'vector-find-median! mean 3 1)))
        (vector-sort! less (check-vector 'vector-find-median! v))
        (median 'vector-find-median! v knil mean)))

    ;; The K-th smallest (0-based) element of v[start, end), which it leaves sorted.
    (define (vector-select! less v k . opt)
      (check-procedure 'vector-select! less)
      (with-range 'vector-select! v (optional 'vector-select! opt 3 2) (s e)
        (check-count 'vector-select! k)
        (if (>= k (- e s))
            (wrong-type 'vector-select!
                        (string-append "an index below " (number->string (- e s))) k))
        (vector-sort! less v s e)
        (vector-ref v (+ s k))))

    ;; Moves the K smallest elements of v[start, end) to its first K places (sorting it).
    (define (vector-separate! less v k . opt)
      (check-procedure 'vector-separate! less)
      (with-range 'vector-separate! v (optional 'vector-separate! opt 3 2) (s e)
        (check-count 'vector-separate! k)
        (if (> k (- e s))
            (wrong-type 'vector-separate!
                        (string-append "a count of at most " (number->string (- e s))) k))
        (vector-sort! less v s e)))))
