;; SRFI 125: hash tables (also (scheme hash-table)): SRFI 69 and more.
;;
;; The tables, their lookups and stores (which call a table's own equality and hash
;; procedures), the constructors and most set operations are native, in (srfi 69 core)
;; and (srfi 125 core) (harness/scheme/primitives/hashtables.py, hashtables_srfi125.py);
;; the procedures that call a procedure of the program on each entry (hash-table=?,
;; -for-each, -map->list, -count, -find, -intern!) and -intersection! and -difference!
;; are here, in Scheme, so they count their steps, run in the sandbox and resume a
;; continuation captured in the procedure they call with nothing written for it. The
;; walks go over a snapshot of the entries (the native hash-table-walk and -fold, or
;; hash-table->alist where a walk may stop early), so the procedure they call may change
;; the table. hash-table-unfold, -map, -map!, -prune!, -union!, -xor! and
;; alist->hash-table stay native: in Scheme they measured 1.7-12x slower (a store from
;; Scheme, a lookup and then a store where Python does one lookup, values through
;; call-with-values): see hashtables_srfi125.py.
(define-library (srfi 125)
  (export
   ;; from (srfi 69)
   hash hash-by-identity hash-table->alist hash-table-clear! hash-table-contains?
   hash-table-copy hash-table-equivalence-function hash-table-exists? hash-table-fold
   hash-table-hash-function hash-table-keys hash-table-merge! hash-table-ref
   hash-table-ref/default hash-table-size hash-table-update! hash-table-update!/default
   hash-table-values hash-table-walk hash-table? string-ci-hash string-hash
   ;; from (srfi 125 core)
   make-hash-table hash-table alist->hash-table hash-table-set! hash-table-delete!
   hash-table-empty-copy hash-table-empty? hash-table-entries hash-table-mutable?
   hash-table-pop! hash-table-union! hash-table-xor! hash-table-unfold hash-table-map
   hash-table-map! hash-table-prune!
   ;; written here
   hash-table=? hash-table-for-each hash-table-map->list hash-table-count hash-table-find
   hash-table-intern! hash-table-intersection! hash-table-difference!)
  (import (scheme base)
          (except (srfi 69) make-hash-table alist->hash-table hash-table-set!
                  hash-table-delete!)
          (srfi 125 core)
          (rename (only (srfi 69 core) hash-table-set! hash-table-delete!)
                  (hash-table-set! set-one!) (hash-table-delete! delete-one!))
          (only (srfi 128 core) comparator? comparator-equality-predicate)
          (harness checks))
  (begin
    (define-syntax check-table
      (syntax-rules ()
        ((_ who value) (check-arg who hash-table? "a hash table" value))))

    ;; What no table holds: the default of a lookup that must tell a missing key.
    (define missing (list 'missing))

    ;; Same keys (by the tables' equality) with values equal by VALUE-COMPARATOR.
    (define (hash-table=? value-comparator table1 table2)
      (let ((same (comparator-equality-predicate
                   (check-arg 'hash-table=? comparator? "a comparator" value-comparator))))
        (check-table 'hash-table=? table1)
        (check-table 'hash-table=? table2)
        (and (= (hash-table-size table1) (hash-table-size table2))
             (let loop ((es (hash-table->alist table1)))
               (or (null? es)
                   (let ((value (hash-table-ref/default table2 (caar es) missing)))
                     (and (not (eq? value missing))
                          (same (cdar es) value)
                          (loop (cdr es)))))))))

    ;; (proc key value) for each entry.
    (define (hash-table-for-each proc table)
      (check-procedure 'hash-table-for-each proc)
      (hash-table-walk (check-table 'hash-table-for-each table) proc))

    (define (hash-table-map->list proc table)
      (check-procedure 'hash-table-map->list proc)
      (reverse (hash-table-fold (check-table 'hash-table-map->list table)
                                (lambda (key value acc) (cons (proc key value) acc))
                                '())))

    ;; How many entries satisfy (pred key value).
    (define (hash-table-count pred table)
      (check-procedure 'hash-table-count pred)
      (hash-table-fold (check-table 'hash-table-count table)
                       (lambda (key value n) (if (pred key value) (+ n 1) n))
                       0))

    ;; The first true (proc key value), else (failure).
    (define (hash-table-find proc table failure)
      (check-procedure 'hash-table-find proc)
      (check-procedure 'hash-table-find failure)
      (let loop ((es (hash-table->alist (check-table 'hash-table-find table))))
        (if (pair? es)
            (or (proc (caar es) (cdar es)) (loop (cdr es)))
            (failure))))

    ;; The value of KEY; if missing, sets it to (failure) first.
    (define (hash-table-intern! table key failure)
      (check-table 'hash-table-intern! table)
      (check-procedure 'hash-table-intern! failure)
      (let ((value (hash-table-ref/default table key missing)))
        (if (eq? value missing)
            (let ((value (failure)))
              (set-one! table key value)
              value)
            value)))

    ;; -- tables as sets (the others are native) -------------------------------------

    ;; Deletes from TABLE1 the keys TABLE2 lacks (KEEP? #t: the keys of both stay) or has
    ;; (KEEP? #f); each key is looked up in TABLE2, then deleted from TABLE1 by a lookup.
    ;; (hash-table-walk walks a snapshot.)
    (define (drop-keys! who keep? table1 table2)
      (check-table who table1)
      (check-table who table2)
      (hash-table-walk table1 (lambda (key value)
                                (unless (eq? (hash-table-contains? table2 key) keep?)
                                  (delete-one! table1 key))))
      table1)

    (define (hash-table-intersection! table1 table2)
      (drop-keys! 'hash-table-intersection! #t table1 table2))

    (define (hash-table-difference! table1 table2)
      (drop-keys! 'hash-table-difference! #f table1 table2))))
