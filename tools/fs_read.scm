;; Builtin tools, fs_read: the lines of a file in the VFS (vfs:///...) or on the host (a
;; path relative to the project root). A host path outside the allowed paths passes the
;; pre_file_read gate first (harness.calls.permissions).
(import (harness vfs) (harness lines))

(define path-doc "a vfs:/// URI, or a file path (relative to the project root)")

(define (path-of args)
  (let ((entry (assoc "path" args)))
    (if (and entry (string? (cdr entry)))
        (cdr entry)
        (error "Must provide path"))))

;; the files are streamed (vfs-read-lines): a head or a range never reads a whole file
(define (first-n args n) (vfs-read-lines (path-of args) 0 n))
(define (last-n args n) (vfs-read-last-lines (path-of args) n))

(define count-parameters
  `((path . ((type . "string") (description . ,path-doc)))
    (lines . ((type . "integer") (description . "how many lines (default 50)")
              (default . 50) (required . #f)))))

;; file_head and file_tail: the same parameters, a different end of the file
(define (lines-tool pick)
  (lambda (args) (lines->text (pick args (arg-count args "lines" 50)))))

(define-tool file_head
  (description "Read the first lines of a file (default 50).")
  (category "fs_read")
  (summary-params '("path"))
  (parameters count-parameters)
  (execute (lines-tool first-n)))

(define-tool file_tail
  (description "Read the last lines of a file (default 50).")
  (category "fs_read")
  (summary-params '("path"))
  (parameters count-parameters)
  (execute (lines-tool last-n)))

(define-tool file_lines
  (description "Read lines start..end of a file (1-based, inclusive).")
  (category "fs_read")
  (summary-params '("path"))
  (parameters `((path . ((type . "string") (description . ,path-doc)))
                (start . ((type . "integer") (description . "first line (from 1)")))
                (end . ((type . "integer") (description . "last line (inclusive)")))))
  (execute (lambda (args)
    (let ((start (arg-count args "start" #f))
          (end (arg-count args "end" #f)))
      (cond ((not start) (error "Missing 'start' parameter"))
            ((not end) (error "Missing 'end' parameter"))
            ((< start 1) (error "Line numbers are 1-indexed, start must be >= 1"))
            ((< end start) (error "End line must be >= start line"))
            (else
             (lines->text (vfs-read-lines (path-of args) (- start 1)
                                          (+ 1 (- end start))))))))))
