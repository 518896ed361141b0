;; SRFI 69: basic hash tables.
;;
;; The tables, their lookups and stores (which call a table's own equality and hash
;; procedures) and the walks that call no procedure of the program are native, in
;; (srfi 69 core) (harness/scheme/primitives/hashtables.py); the procedures that call a
;; procedure of the program (hash-table-walk, -fold, -update!, -update!/default) and
;; those that store many entries (-merge!, alist->hash-table) are here, in Scheme, so
;; they count their steps, run in the sandbox and resume a continuation captured in the
;; procedure they call with nothing written for it. The walks go over a snapshot of the
;; entries (hash-table->alist), so the procedure they call may change the table.
(define-library (srfi 69)
  (export
   ;; from (srfi 69 core)
   make-hash-table hash-table? hash-table-equivalence-function hash-table-hash-function
   hash-table-ref hash-table-ref/default hash-table-set! hash-table-delete!
   hash-table-exists? hash-table-contains? hash-table-size hash-table-keys
   hash-table-values hash-table->alist hash-table-copy hash-table-clear!
   hash string-hash string-ci-hash hash-by-identity
   ;; written here
   hash-table-walk hash-table-fold hash-table-update! hash-table-update!/default
   hash-table-merge! alist->hash-table)
  (import (scheme base) (srfi 69 core) (srfi 69 alist) (harness checks))
  (begin
    (define-syntax check-table
      (syntax-rules ()
        ((_ who value) (check-arg who hash-table? "a hash table" value))))

    ;; What no table holds: the default of a lookup that must tell a missing key.
    (define missing (list 'missing))

    ;; (proc key value) for each entry.
    (define (hash-table-walk table proc)
      (check-procedure 'hash-table-walk proc)
      (let loop ((es (hash-table->alist (check-table 'hash-table-walk table))))
        (when (pair? es)
          (proc (caar es) (cdar es))
          (loop (cdr es)))))

    ;; (hash-table-fold table kons knil): (kons key value acc) over the entries. The
    ;; SRFI 125 order (hash-table-fold kons knil table) is accepted too.
    (define (hash-table-fold table kons knil)
      (if (and (not (hash-table? table)) (hash-table? knil))
          (fold-entries knil table kons)
          (fold-entries table kons knil)))

    (define (fold-entries table kons knil)
      (check-procedure 'hash-table-fold kons)
      (let loop ((es (hash-table->alist (check-table 'hash-table-fold table))) (acc knil))
        (if (pair? es)
            (loop (cdr es) (kons (caar es) (cdar es) acc))
            acc)))

    ;; (hash-table-update! table key updater [failure [success]]): sets KEY to
    ;; (updater (hash-table-ref table key failure success)); SRFI 69's form is the first
    ;; four (failure: a thunk for a missing key).
    (define (hash-table-update! table key updater . options)
      (check-table 'hash-table-update! table)
      (check-procedure 'hash-table-update! updater)
      (let ((value (hash-table-ref/default table key missing)))
        (hash-table-set!
         table key
         (updater
          (cond ((not (eq? value missing))
                 (if (and (pair? options) (pair? (cdr options)))
                     ((check-procedure 'hash-table-update! (cadr options)) value)
                     value))
                ((pair? options) ((check-procedure 'hash-table-update! (car options))))
                (else (error "hash-table-update!: no value for key" key)))))))

    (define (hash-table-update!/default table key proc default)
      (check-table 'hash-table-update!/default table)
      (check-procedure 'hash-table-update!/default proc)
      (hash-table-set! table key (proc (hash-table-ref/default table key default))))

    ;; Adds the entries of OTHER to TABLE (OTHER's values win) and returns TABLE.
    (define (hash-table-merge! table other)
      (check-table 'hash-table-merge! table)
      (let loop ((es (hash-table->alist (check-table 'hash-table-merge! other))))
        (if (pair? es)
            (begin (hash-table-set! table (caar es) (cdar es))
                   (loop (cdr es)))
            table)))

    ;; A table of the entries of ALIST (made by make-hash-table from OPTIONS); the first
    ;; entry for a key wins.
    (define (alist->hash-table alist . options)
      (add-alist! 'alist->hash-table (apply make-hash-table options) alist))))
