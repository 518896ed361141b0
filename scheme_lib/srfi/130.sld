;; SRFI 130-style string utilities (also (harness strings)), as harness has them: indexes
;; are plain integers, string-split is chibi's.
;;
;; The procedures that take no procedure of the program are native, in (srfi 130 core)
;; (harness/scheme/primitives/strings.py), and so are the searches, counts, splits and
;; trims by a character or whitespace, in (srfi 130 private). With a predicate they are
;; written here, in Scheme, so they count their steps, run in the sandbox and resume a
;; continuation captured in the predicate with nothing written for it. They walk the
;; characters of the string (of its [start, end) part) as a vector taken when they start,
;; and build what they return from it: a predicate that changes the string changes
;; nothing of the walk, and a re-entry gives what a fresh run would give.
(define-library (srfi 130)
  (export
   ;; from (srfi 130 core)
   string-contains string-search-forward string-join string-prefix? string-suffix?
   string-pad string-pad-right string-null? string-reverse string-take string-drop
   string-take-right string-drop-right
   ;; written here
   string-index string-rindex string-count string-split
   string-trim string-trim-left string-trim-right)
  (import (scheme base) (srfi 130 core) (harness checks)
          (rename (srfi 130 private)
                  (string-index index-of-char) (string-rindex rindex-of-char)
                  (string-count count-of-char) (string-split split-at-char)
                  (string-trim trim-char) (string-trim-left trim-char-left)
                  (string-trim-right trim-char-right)))
  (begin
    ;; (by-char F ARG ... REST): the native F applied to ARG ... and the list REST (the
    ;; optional arguments). (Syntax, and apply only out of tail position: a tail call of
    ;; a procedure that is not a primitive would cost every call a trampoline.)
    (define-syntax by-char
      (syntax-rules ()
        ((_ f arg ... rest)
         (cond ((null? rest) (f arg ...))
               ((null? (cdr rest)) (f arg ... (car rest)))
               ((null? (cddr rest)) (f arg ... (car rest) (cadr rest)))
               (else (not-tail (apply f arg ... rest)))))))

    ;; (not-tail E): E, called out of tail position.
    (define-syntax not-tail
      (syntax-rules ()
        ((_ e) (let ((result e)) result))))

    (define-syntax predicate-first?
      (syntax-rules ()
        ((_ rest) (and (pair? rest) (procedure? (car rest))))))

    ;; (chars-in-range WHO LEAST S REST), native: the characters of S between the start
    ;; and end in REST, a vector; WHO takes LEAST to 4 arguments.
    ;; (offset REST K): the index K of a vector of chars-in-range as an index of the
    ;; string (#f stays #f).
    (define-syntax offset
      (syntax-rules ()
        ((_ rest k) (let ((i k)) (and i (if (pair? rest) (+ i (car rest)) i))))))

    ;; -- the walks: indexes of CS whose character PRED answers true (found) or #f (kept) -
    (define (first-found pred cs)
      (let ((n (vector-length cs)))
        (let loop ((k 0))
          (cond ((= k n) #f) ((pred (vector-ref cs k)) k) (else (loop (+ k 1)))))))

    (define (last-found pred cs)
      (let loop ((k (- (vector-length cs) 1)))
        (cond ((< k 0) #f) ((pred (vector-ref cs k)) k) (else (loop (- k 1))))))

    (define (first-kept pred cs)
      (let ((n (vector-length cs)))
        (let loop ((k 0))
          (cond ((= k n) #f) ((pred (vector-ref cs k)) (loop (+ k 1))) (else k)))))

    ;; down to FLOOR (included)
    (define (last-kept pred cs floor)
      (let loop ((k (- (vector-length cs) 1)))
        (cond ((< k floor) #f) ((pred (vector-ref cs k)) (loop (- k 1))) (else k))))

    ;; -- searches and counts (PRED a character or a predicate) ----------------------------
    (define (string-index s pred . rest)
      (if (procedure? pred)
          (offset rest (first-found pred (chars-in-range 'string-index 2 s rest)))
          (by-char index-of-char s pred rest)))

    (define (string-rindex s pred . rest)
      (if (procedure? pred)
          (offset rest (last-found pred (chars-in-range 'string-rindex 2 s rest)))
          (by-char rindex-of-char s pred rest)))

    (define (string-count s pred . rest)
      (if (procedure? pred)
          (let* ((cs (chars-in-range 'string-count 2 s rest)) (n (vector-length cs)))
            (let loop ((k 0) (count 0))
              (if (= k n)
                  count
                  (loop (+ k 1) (if (pred (vector-ref cs k)) (+ count 1) count)))))
          (by-char count-of-char s pred rest)))

    ;; -- trims: (string-trim s [pred-or-char [start [end]]]) ------------------------------
    ;; Without a predicate, of whitespace or of a character, natively.
    (define (string-trim s . rest)
      (if (predicate-first? rest)
          (not-tail (trim-where 'string-trim s rest #t #t))
          (by-char trim-char s rest)))

    (define (string-trim-left s . rest)
      (if (predicate-first? rest)
          (not-tail (trim-where 'string-trim-left s rest #t #f))
          (by-char trim-char-left s rest)))

    (define (string-trim-right s . rest)
      (if (predicate-first? rest)
          (not-tail (trim-where 'string-trim-right s rest #f #t))
          (by-char trim-char-right s rest)))

    ;; REST: the predicate, then the optional start and end.
    (define (trim-where who s rest left? right?)
      (let* ((pred (car rest))
             (cs (chars-in-range who 1 s (cdr rest)))
             (a (if left? (first-kept pred cs) 0))
             (b (and a (if right? (last-kept pred cs a) (- (vector-length cs) 1)))))
        (if b (vector->string cs a (+ b 1)) (string))))

    ;; -- chibi's string-split: (string-split s [delimiter [limit]]) -----------------------
    ;; With a predicate: the pieces between the characters it answers true of, at most
    ;; LIMIT of them (cut from the left; the predicate is not asked past the last cut).
    (define (string-split s . rest)
      (if (predicate-first? rest)
          (not-tail (split-where (check-arg 'string-split string? "a string" s)
                                 (car rest) (cdr rest)))
          (by-char split-at-char s rest)))

    (define (positive-count? k) (and (exact-integer? k) (> k 0)))

    (define (split-where s pred rest)
      (let ((cuts (cond ((null? rest) -1)
                        ((null? (cdr rest))
                         (- (check-arg 'string-split positive-count?
                                       "a positive exact integer limit" (car rest))
                            1))
                        (else (error (string-append
                                      "string-split: expected 1 to 3 arguments, got "
                                      (number->string (+ 2 (length rest)))))))))
        (if (= (string-length s) 0)
            '()
            (let* ((cs (chars-in-range 'string-split 1 s '())) (n (vector-length cs)))
              (let loop ((k 0) (from 0) (cuts cuts) (pieces '()))
                (cond ((or (= k n) (= cuts 0))
                       (reverse (cons (vector->string cs from n) pieces)))
                      ((pred (vector-ref cs k))
                       (loop (+ k 1) (+ k 1) (- cuts 1) (cons (vector->string cs from k) pieces)))
                      (else (loop (+ k 1) from cuts pieces))))))))))
