;; SRFI 69: basic hash tables.
;;
;; The tables, their lookups and stores (which call a table's own equality and hash
;; procedures) are native, in (srfi 69 core) (harness/scheme/primitives/hashtables.py),
;; as are hash-table-walk, -fold, -update! and alist->hash-table, which measured 1.65-6.6x
;; slower in Scheme (see there); hash-table-merge! passes a Scheme procedure to
;; hash-table-walk. hash-table-update!/default and hash-table-merge! are
;; here, in Scheme, so they count their steps, run in the sandbox and resume a
;; continuation captured in the procedure they call with nothing written for it.
(define-library (srfi 69)
  (export
   ;; from (srfi 69 core)
   make-hash-table hash-table? hash-table-equivalence-function hash-table-hash-function
   hash-table-ref hash-table-ref/default hash-table-set! hash-table-delete!
   hash-table-exists? hash-table-contains? hash-table-update! hash-table-size
   hash-table-keys hash-table-values hash-table-walk hash-table-fold hash-table->alist
   hash-table-copy hash-table-clear! alist->hash-table
   hash string-hash string-ci-hash hash-by-identity
   ;; written here
   hash-table-update!/default hash-table-merge!)
  (import (scheme base) (srfi 69 core) (harness checks))
  (begin
    (define-syntax check-table
      (syntax-rules ()
        ((_ who value) (check-arg who hash-table? "a hash table" value))))

    ;; Sets KEY to (proc (hash-table-ref/default table key default)); the store looks KEY
    ;; up again.
    (define (hash-table-update!/default table key proc default)
      (check-table 'hash-table-update!/default table)
      (check-procedure 'hash-table-update!/default proc)
      (hash-table-set! table key (proc (hash-table-ref/default table key default))))

    ;; Adds the entries of OTHER to TABLE (OTHER's values win) and returns TABLE.
    (define (hash-table-merge! table other)
      (check-table 'hash-table-merge! table)
      (hash-table-walk (check-table 'hash-table-merge! other)
                       (lambda (key value) (hash-table-set! table key value)))
      table)))
