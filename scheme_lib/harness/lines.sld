;; (harness lines): text as lines the way chibi's builtin tools count them (Rust's
;; str::lines): split at #\newline, one #\return dropped from each line's end, and no
;; empty line after a final newline.
(define-library (harness lines)
  (export text-lines lines->text utf8-length arg-string arg-count)
  (import (scheme base) (srfi 1) (harness strings))
  (begin
    (define (strip-return line)
      (let ((n (string-length line)))
        (if (and (> n 0) (char=? (string-ref line (- n 1)) #\return))
            (substring line 0 (- n 1))
            line)))

    (define (text-lines text)
      (let* ((parts (string-split text #\newline))
             (parts (if (string=? (last parts) "") (drop-right parts 1) parts)))
        (if (string-index text #\return) (map strip-return parts) parts)))

    (define (lines->text lines) (string-join lines "\n"))

    (define (utf8-length text) (bytevector-length (string->utf8 text)))

    ;; the string argument NAME, or the error chibi gives when it is missing
    (define (arg-string args name)
      (let ((entry (assoc name args)))
        (if (and entry (string? (cdr entry)))
            (cdr entry)
            (error (string-append "Missing '" name "' parameter")))))

    ;; a count argument: an exact integer >= 0, else DEFAULT (chibi's lenient integers)
    (define (arg-count args name default)
      (let ((entry (assoc name args)))
        (if (and entry (exact-integer? (cdr entry)) (>= (cdr entry) 0))
            (cdr entry)
            default)))))
