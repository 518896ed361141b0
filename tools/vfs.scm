;; Builtin tools, vfs: the virtual filesystem as the calling context. Every path is a
;; vfs:/// URI; writes (mkdir, delete, the destination of a copy, both ends of a move)
;; must be in the caller's zones. These fire no hooks and pass no permission gate.
(import (harness vfs) (harness lines))

(define (uri-of args name) (vfs-path (arg-string args name)) (arg-string args name))

(define-tool vfs_list
  (description "List a VFS directory: one 'name (file)' or 'name (dir)' per line; dotfiles are hidden.")
  (category "vfs")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI")))))
  (execute (lambda (args)
    (let* ((entries (vfs-list (uri-of args "path")))
           (shown (filter (lambda (e) (not (string-prefix? "." (car e)))) entries)))
      (if (null? shown)
          "No entries found."
          (string-join (map (lambda (e) (string-append (car e) " ("
                                                       (symbol->string (cdr e)) ")"))
                            shown)
                       "\n"))))))

(define-tool vfs_info
  (description "Kind, size and times of a VFS path.")
  (category "vfs")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI")))))
  (execute (lambda (args)
    (let ((info (vfs-info (uri-of args "path"))))
      (define (field name) (cond ((assoc name info) => cdr) (else #f)))
      (string-join
       (append (list (string-append "kind: " (field "kind"))
                     (string-append "size: " (number->string (field "size")) " bytes"))
               (if (field "created") (list (string-append "created: " (field "created"))) '())
               (if (field "modified") (list (string-append "modified: " (field "modified"))) '()))
       "\n")))))

(define src-dst '((src . ((type . "string") (description . "a vfs:/// URI")))
                  (dst . ((type . "string") (description . "a vfs:/// URI")))))

;; vfs_copy and vfs_move: SRC and DST checked, the operation, then "Done SRC -> DST"
(define (src-dst-tool operation done)
  (lambda (args)
    (let ((src (uri-of args "src")) (dst (uri-of args "dst")))
      (operation src dst)
      (string-append done " " (vfs-path src) " -> " (vfs-path dst)))))

(define-tool vfs_copy
  (description "Copy a VFS file or folder (parents of dst are created).")
  (category "vfs")
  (parameters src-dst)
  (execute (src-dst-tool vfs-copy "Copied")))

(define-tool vfs_move
  (description "Move (rename) a VFS file or folder.")
  (category "vfs")
  (parameters src-dst)
  (execute (src-dst-tool vfs-move "Moved")))

(define-tool vfs_mkdir
  (description "Make a VFS folder and its parents (an existing folder is fine).")
  (category "vfs")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI")))))
  (execute (lambda (args)
    (let ((path (uri-of args "path")))
      (vfs-mkdir path)
      (string-append "Created " (vfs-path path))))))

(define-tool vfs_delete
  (description "Delete a VFS file, or a folder with everything in it.")
  (category "vfs")
  (summary-params '("path"))
  (parameters '((path . ((type . "string") (description . "a vfs:/// URI")))))
  (execute (lambda (args)
    (let ((path (uri-of args "path")))
      (vfs-delete path)
      (string-append "Deleted " (vfs-path path))))))
