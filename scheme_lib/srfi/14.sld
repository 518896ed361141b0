;; SRFI 14: character sets (also (scheme char-set) and (scheme charset)).
;;
;; The sets, their algebra, cursors and lookups are native, in (srfi 14 core)
;; (harness/scheme/primitives/charsets.py); the walks that call a procedure of the
;; program on each member (char-set-fold, -for-each, -map, -filter, -count, -every,
;; -any, -unfold and their ! forms) are here, in Scheme, so they count their steps, run
;; in the sandbox and resume a continuation captured in the procedure they call with
;; nothing written for it. They walk the members in ascending order, range by range
;; (char-set-bounds: the set's ranges as a list, start and end of each); what they gather
;; they gather in fresh pairs, so a re-entered continuation sees its own run's members.
(define-library (srfi 14)
  (export
   ;; from (srfi 14 core)
   char-set:lower-case char-set:upper-case char-set:title-case char-set:letter
   char-set:digit char-set:letter+digit char-set:graphic char-set:printing
   char-set:whitespace char-set:iso-control char-set:punctuation char-set:symbol
   char-set:hex-digit char-set:blank char-set:ascii char-set:empty char-set:full
   char-set? char-set= char-set<= char-set-hash
   char-set-cursor char-set-ref char-set-cursor-next end-of-char-set?
   char-set-copy char-set list->char-set list->char-set! string->char-set string->char-set!
   ucs-range->char-set ucs-range->char-set! ->char-set
   char-set-size char-set->list char-set->string char-set-contains?
   char-set-adjoin char-set-adjoin! char-set-delete char-set-delete!
   char-set-complement char-set-complement! char-set-union char-set-union!
   char-set-intersection char-set-intersection! char-set-xor char-set-xor!
   char-set-difference char-set-difference!
   char-set-diff+intersection char-set-diff+intersection!
   ;; written here
   char-set-fold char-set-for-each char-set-map char-set-filter char-set-filter!
   char-set-count char-set-every char-set-any char-set-unfold char-set-unfold!)
  (import (scheme base) (scheme case-lambda) (srfi 14 core) (harness checks))
  (begin
    (define-syntax check-char-set
      (syntax-rules ()
        ((_ who value) (check-arg who char-set? "a char-set" value))))

    ;; (fold-members WHO CS (C ACC INIT) STEP): ACC from INIT through STEP (with C the
    ;; member, as a character) over the members of CS, ascending.
    (define-syntax fold-members
      (syntax-rules ()
        ((_ who cs (c acc init) step)
         (let ranges ((bs (char-set-bounds (check-char-set who cs))) (acc init))
           (if (null? bs)
               acc
               (let ((end (cadr bs)))
                 (let members ((k (car bs)) (acc acc))
                   (if (= k end)
                       (ranges (cddr bs) acc)
                       (members (+ k 1) (let ((c (integer->char k))) step))))))))))

    ;; (kons c acc) over the members, ascending.
    (define (char-set-fold kons knil cs)
      (check-procedure 'char-set-fold kons)
      (fold-members 'char-set-fold cs (c acc knil) (kons c acc)))

    (define (char-set-for-each proc cs)
      (check-procedure 'char-set-for-each proc)
      (fold-members 'char-set-for-each cs (c acc #f) (begin (proc c) #f))
      (if #f #f))

    ;; The set of (proc c) for every member c (proc must return characters).
    (define (char-set-map proc cs)
      (check-procedure 'char-set-map proc)
      (list->char-set
       (fold-members 'char-set-map cs (c acc '())
                     (cons (check-arg 'char-set-map char? "a character" (proc c)) acc))))

    (define (kept pred who cs)
      (fold-members who cs (c acc '()) (if (pred c) (cons c acc) acc)))

    ;; The members of cs that satisfy pred, added to base (a new set).
    (define char-set-filter
      (case-lambda
        ((pred cs)
         (check-procedure 'char-set-filter pred)
         (list->char-set (kept pred 'char-set-filter cs)))
        ((pred cs base)
         (check-procedure 'char-set-filter pred)
         (check-char-set 'char-set-filter base)
         (list->char-set (kept pred 'char-set-filter cs) base))))

    (define (char-set-filter! pred cs base)
      (check-char-set 'char-set-filter! base)
      (check-procedure 'char-set-filter! pred)
      (list->char-set! (kept pred 'char-set-filter! cs) base))

    (define (char-set-count pred cs)
      (check-procedure 'char-set-count pred)
      (fold-members 'char-set-count cs (c n 0) (if (pred c) (+ n 1) n)))

    ;; (pred c) over the members, ascending, while its value is as true as GOING (#t:
    ;; while true, #f: while false): the value it stopped on, else the last one (GOING
    ;; for an empty set).
    (define (search who cs pred going)
      (let ranges ((bs (char-set-bounds (check-char-set who cs))) (last going))
        (if (null? bs)
            last
            (let ((end (cadr bs)))
              (let members ((k (car bs)) (last last))
                (if (= k end)
                    (ranges (cddr bs) last)
                    (let ((value (pred (integer->char k))))
                      (if (eq? (not value) (not going))
                          (members (+ k 1) value)
                          value))))))))

    ;; The value of pred on the last member if it is true of every member, else #f.
    (define (char-set-every pred cs)
      (check-procedure 'char-set-every pred)
      (search 'char-set-every cs pred #t))

    ;; The first true value of pred on a member, else #f.
    (define (char-set-any pred cs)
      (check-procedure 'char-set-any pred)
      (search 'char-set-any cs pred #f))

    ;; The characters (f seed), (f (g seed)) ... until (p seed) is true, made a string and
    ;; added to SET by ADD: string->char-set (a new set) or string->char-set! (into the
    ;; base of char-set-unfold!). They are gathered 64 at a time in a list, each 64 made a
    ;; string: one list of them all kept the collector busy with its pairs (1.7x the old
    ;; Python loop's time; 1.05x with the collector off), and adding each 64 to a set was
    ;; quadratic for a set of many ranges. What a run gathers is its own (fresh pairs and
    ;; strings): a continuation re-entered leaves a set made before as it was. The order
    ;; p f g is SRFI 1's, that of the SRFI's examples and reference implementation (its
    ;; signature line says f p g).
    (define (unfold-chars who p f g seed add set)
      (check-procedure who p)
      (check-procedure who f)
      (check-procedure who g)
      (let loop ((seed seed) (chars '()) (left 64) (strings '()))
        (if (p seed)
            (add (apply string-append (list->string chars) strings) set)
            (let ((chars (cons (check-arg who char? "a character" (f seed)) chars)))
              (if (= left 1)
                  (loop (g seed) '() 64 (cons (list->string chars) strings))
                  (loop (g seed) chars (- left 1) strings))))))

    ;; Those characters added to base (a new set).
    (define char-set-unfold
      (case-lambda
        ((p f g seed)
         (unfold-chars 'char-set-unfold p f g seed string->char-set char-set:empty))
        ((p f g seed base)
         (check-char-set 'char-set-unfold base)
         (unfold-chars 'char-set-unfold p f g seed string->char-set base))))

    (define (char-set-unfold! p f g seed base)
      (check-char-set 'char-set-unfold! base)
      (unfold-chars 'char-set-unfold! p f g seed string->char-set! base))))
