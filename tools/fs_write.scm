;; Builtin tools, fs_write: writing and editing files in the VFS (as the calling
;; context, within its zones) or on the host (after the pre_file_write gate).
;; A vfs:/// write fires pre_vfs_write before and post_vfs_write after (the pipeline).
(import (harness vfs) (harness lines))

(define (vfs-uri? path) (string-prefix? "vfs:///" path))

(define-tool write_file
  (description "Write a file (replacing it; folders are created). path: a vfs:/// URI or a file path.")
  (category "fs_write")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI or a file path")))
                (content . ((type . "string") (description . "the whole new content")))))
  (execute (lambda (args)
    (let ((path (arg-string args "path"))
          (content (arg-string args "content")))
      (if (vfs-uri? path)
          (vfs-write path content)
          (host-write path content))
      (string-append "File written successfully: "
                     (if (vfs-uri? path) (vfs-path path) path)
                     " (" (number->string (utf8-length content)) " bytes)")))))

;; -- file_edit ---------------------------------------------------------------------------

(define operations
  '("replace_lines" "insert_before" "insert_after" "delete_lines" "replace_string"))

;; the parameters each operation needs, checked before the file is touched
(define (needed operation)
  (cond ((string=? operation "replace_lines") '("line_start" "line_end" "content"))
        ((member operation '("insert_before" "insert_after")) '("line_start" "content"))
        ((string=? operation "delete_lines") '("line_start" "line_end"))
        (else '("find" "replace"))))

(define (line-number args name)
  (let ((n (arg-count args name #f)))
    (cond ((not n) (error (string-append "Missing '" name "' parameter")))
          ((< n 1) (error (string-append "'" name "' must be >= 1 (line numbers are 1-indexed)")))
          (else n))))

(define (check-parameters args operation)
  (for-each (lambda (name)
              (if (member name '("line_start" "line_end"))
                  (line-number args name)
                  (arg-string args name)))
            (needed operation)))

;; Rust's {:?} of a string: quoted, with \" \\ \n \r \t escaped
(define (debug-quote text)
  (let ((out (open-output-string)))
    (write-char #\" out)
    (string-for-each
     (lambda (c)
       (case c
         ((#\") (write-string "\\\"" out))
         ((#\\) (write-string "\\\\" out))
         ((#\newline) (write-string "\\n" out))
         ((#\return) (write-string "\\r" out))
         ((#\tab) (write-string "\\t" out))
         (else (write-char c out))))
     text)
    (write-char #\" out)
    (get-output-string out)))

(define (replace-first text find replace shown)
  (let ((at (string-contains text find)))
    (if (not at)
        (error (string-append "String not found in file: " (debug-quote find)))
        (string-append (substring text 0 at) replace
                       (substring text (+ at (string-length find)) (string-length text))))))

(define (take-lines lines n)
  (if (or (= n 0) (null? lines)) '() (cons (car lines) (take-lines (cdr lines) (- n 1)))))

(define (check-range start end total)
  (cond ((< end start)
         (error (string-append "line_end (" (number->string end) ") must be >= line_start ("
                               (number->string start) ")")))
        ((> end total)
         (error (string-append "line_end " (number->string end)
                               " is out of bounds (file has " (number->string total)
                               " lines)")))))

(define (edit-lines lines operation args)
  (let ((total (length lines))
        (start (line-number args "line_start")))
    (cond
     ((member operation '("insert_before" "insert_after"))
      (if (> start total)
          (error (string-append "Line " (number->string start)
                                " is out of bounds (file has " (number->string total)
                                " lines)")))
      (let ((at (if (string=? operation "insert_before") (- start 1) start)))
        (append (take-lines lines at) (text-lines (arg-string args "content"))
                (list-tail lines at))))
     (else
      (let ((end (line-number args "line_end")))
        (check-range start end total)
        (append (take-lines lines (- start 1))
                (if (string=? operation "replace_lines")
                    (text-lines (arg-string args "content"))
                    '())
                (list-tail lines end)))))))

(define-tool file_edit
  (description "Edit a file: replace_lines, insert_before, insert_after, delete_lines (line_start, line_end: 1-based) or replace_string (the first occurrence of find).")
  (category "fs_write")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI or a file path")))
                (operation . ((type . "string")
                              (enum . ("replace_lines" "insert_before" "insert_after"
                                       "delete_lines" "replace_string"))
                              (description . "what to do")))
                (line_start . ((type . "integer") (required . #f)
                               (description . "first line (from 1)")))
                (line_end . ((type . "integer") (required . #f)
                             (description . "last line (inclusive)")))
                (content . ((type . "string") (required . #f)
                            (description . "the new lines")))
                (find . ((type . "string") (required . #f)
                         (description . "replace_string: the text to find")))
                (replace . ((type . "string") (required . #f)
                            (description . "replace_string: its replacement")))))
  (execute (lambda (args)
    (let ((path (arg-string args "path"))
          (operation (arg-string args "operation")))
      (if (not (member operation operations))
          (error (string-append "Unknown operation '" operation "'. Valid: "
                                (string-join operations ", "))))
      (check-parameters args operation)
      (let* ((vfs? (vfs-uri? path))
             (shown (if vfs? (vfs-path path) (host-path path)))
             (text (if vfs?
                       (vfs-read path)
                       (guard (e ((error-object? e)
                                  (error (string-append "Failed to read '" shown "': "
                                                        (error-object-message e)))))
                         (vfs-read path)))))
        (define (save! new-text) (if vfs? (vfs-write path new-text) (host-write shown new-text)))
        (if (string=? operation "replace_string")
            (let ((find (arg-string args "find")) (replace (arg-string args "replace")))
              (save! (replace-first text find replace shown))
              (string-append "Replaced string in " shown " (" (number->string (utf8-length find))
                             " \x2192; " (number->string (utf8-length replace)) " bytes)"))
            (let* ((lines (edit-lines (text-lines text) operation args))
                   (joined (lines->text lines))
                   (ends-with-newline (string-suffix? "\n" text)))
              (save! (if (or ends-with-newline (pair? lines)) (string-append joined "\n") joined))
              (string-append "Edited " shown " (" (number->string (length lines))
                             " lines)"))))))))
