;; (srfi 69 alist): the loop that fills a table from an association list, shared by
;; alist->hash-table of (srfi 69) and of (srfi 125), whose tables are made differently.
(define-library (srfi 69 alist)
  (export add-alist!)
  (import (scheme base) (srfi 69 core) (harness checks))
  (begin
    ;; Adds to TABLE the entries of ALIST whose keys it lacks (the first entry for a key
    ;; wins) and returns TABLE.
    (define (add-alist! who table alist)
      (let check ((es (check-list who alist)))
        (when (pair? es)
          (unless (pair? (car es))
            (wrong-type who "an association list (a list of pairs)" alist))
          (check (cdr es))))
      (let loop ((es alist))
        (if (pair? es)
            (let ((key (caar es)))
              (unless (hash-table-contains? table key)
                (hash-table-set! table key (cdar es)))
              (loop (cdr es)))
            table)))))
