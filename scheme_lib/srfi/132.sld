;; SRFI 132: sort libraries (also (scheme sort)).
;;
;; The sorts are native, in (srfi 132 core) (harness/scheme/primitives/sorting.py): a
;; merge sort with a Scheme `less` measured 3.5x slower written in Scheme, so it stays a
;; Python loop with its resume record, as chibi-scheme keeps its sort in C. What calls
;; `less` or `=` once per element is here, in Scheme: the merges, the -sorted? checks, the
;; neighbour-dups deletions, and the medians and selections (a native sort, then Scheme).
;; Compiled by harness's own compiler, they count their steps, run in the sandbox and
;; resume a continuation captured in the procedure they call with nothing written for it.
;; Each reads its input before the first call of that procedure (a list of the vector's
;; range, or the list itself) and builds its result from fresh pairs, writing into a
;; vector only after its last call: so a re-entered continuation gives what a fresh run
;; would give, and the results returned before stay as they were.
(define-library (srfi 132)
  (export
   ;; from (srfi 132 core)
   list-sort list-stable-sort list-sort! list-stable-sort! vector-sort vector-stable-sort
   vector-sort! vector-stable-sort! sort
   ;; written here
   list-sorted? vector-sorted? list-merge list-merge! vector-merge vector-merge!
   list-delete-neighbor-dups list-delete-neighbor-dups! vector-delete-neighbor-dups
   vector-delete-neighbor-dups! vector-find-median vector-find-median! vector-select!
   vector-separate!)
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

    ;; (vector-merge < v1 v2 [start1 [end1 [start2 [end2]]]]): a new vector.
    (define (vector-merge less v1 v2 . opt)
      (list->vector (merge-ranges 'vector-merge less v1 v2 (optional 'vector-merge opt 3 4))))

    ;; The merge of the ranges of V1 and V2 that OPT gives, as a list.
    (define (merge-ranges who less v1 v2 opt)
      (check-procedure who less)
      (let ((opt2 (if (and (pair? opt) (pair? (cdr opt))) (cddr opt) '())))
        (with-range who v1 (if (pair? opt2) (list (car opt) (cadr opt)) opt) (s1 e1)
          (with-range who v2 opt2 (s2 e2)
            (merge less (vector->list v1 s1 e1) (vector->list v2 s2 e2))))))

    ;; (vector-merge! < to v1 v2 [start [start1 [end1 [start2 [end2]]]]]): the merge
    ;; written into TO from START.
    (define (vector-merge! less to v1 v2 . opt)
      (check-procedure 'vector-merge! less)
      (let* ((opt (optional 'vector-merge! opt 4 5))
             (n (vector-length (check-vector 'vector-merge! to)))
             (at (start-of 'vector-merge! to n opt))
             (merged (merge-ranges 'vector-merge! less v1 v2 (if (pair? opt) (cdr opt) '())))
             (end (+ at (length merged))))
        (if (> end n) (fail 'vector-merge! "end index out of range" to end))
        (put! to at merged)))

    ;; Writes the elements of LST into V from index AT; the index after the last.
    (define (put! v at lst)
      (if (pair? lst)
          (begin (vector-set! v at (car lst)) (put! v (+ at 1) (cdr lst)))
          at))

    ;; -- -sorted? -------------------------------------------------------------------------
    (define (list-sorted? less lst)
      (check-procedure 'list-sorted? less)
      (let ((lst (check-list 'list-sorted? lst)))
        (or (null? lst)
            (let loop ((a (car lst)) (rest (cdr lst)))
              (or (not (pair? rest))
                  (and (not (less (car rest) a)) (loop (car rest) (cdr rest))))))))

    (define (vector-sorted? less v . opt)
      (check-procedure 'vector-sorted? less)
      (with-range 'vector-sorted? v (optional 'vector-sorted? opt 2 2) (s e)
        (let loop ((i (+ s 1)))
          (or (>= i e)
              (and (not (less (vector-ref v i) (vector-ref v (- i 1)))) (loop (+ i 1)))))))

    ;; -- neighbour dups -------------------------------------------------------------------
    ;; The first element of each run of neighbours of LST equal under (= earlier later).
    (define (without-dups = lst)
      (if (pair? lst)
          (let loop ((last (car lst)) (rest (cdr lst)) (acc (list (car lst))))
            (cond ((not (pair? rest)) (reverse acc))
                  ((= last (car rest)) (loop last (cdr rest) acc))
                  (else (loop (car rest) (cdr rest) (cons (car rest) acc)))))
          '()))

    (define (list-delete-neighbor-dups = lst)
      (without-dups (check-procedure 'list-delete-neighbor-dups =)
                    (check-list 'list-delete-neighbor-dups lst)))

    (define (list-delete-neighbor-dups! = lst)
      (without-dups (check-procedure 'list-delete-neighbor-dups! =)
                    (check-list 'list-delete-neighbor-dups! lst)))

    (define (vector-delete-neighbor-dups = v . opt)
      (check-procedure 'vector-delete-neighbor-dups =)
      (with-range 'vector-delete-neighbor-dups v
                  (optional 'vector-delete-neighbor-dups opt 2 2) (s e)
        (list->vector (without-dups = (vector->list v s e)))))

    ;; Packs the result into v[start, new-end) and returns new-end.
    (define (vector-delete-neighbor-dups! = v . opt)
      (check-procedure 'vector-delete-neighbor-dups! =)
      (with-range 'vector-delete-neighbor-dups! v
                  (optional 'vector-delete-neighbor-dups! opt 2 2) (s e)
        (put! v s (without-dups = (vector->list v s e)))))

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
