;; Builtin tools, memory: goals of a flock and this context's reflection, kept in the VFS
;; and written as the calling context (a named flock needs membership).
(import (harness vfs) (harness lines))

(define reflection-limit 10000)  ; bytes

(define-tool update_goals
  (description "Replace the goals of a flock ('site' for everyone on this site).")
  (category "memory")
  (summary-params '("flock"))
  (parameters '((flock . ((type . "string") (description . "the flock, or 'site'")))
                (content . ((type . "string") (description . "the new goals")))))
  (execute (lambda (args)
    (let* ((flock (arg-string args "flock"))
           (content (arg-string args "content"))
           (site? (or (string=? flock "site") (string-prefix? "site:" flock))))
      (vfs-write (if site? "vfs:///site/goals.md"
                     (string-append "vfs:///flocks/" flock "/goals.md"))
                 content)
      (string-append "Goals updated for flock '" flock "' ("
                     (number->string (utf8-length content)) " characters).")))))

(define-tool update_reflection
  (description "Replace this context's reflection: what it has learned and wants to remember.")
  (category "memory")
  (parameters '((content . ((type . "string") (description . "the whole reflection")))))
  (execute (lambda (args)
    (let* ((content (arg-string args "content"))
           (size (utf8-length content)))
      (if (> size reflection-limit)
          (string-append "Error: Content exceeds the " (number->string reflection-limit)
                         " character limit (" (number->string size)
                         " characters provided). Please shorten your reflection.")
          (begin
            (vfs-write (string-append "vfs:///home/" (vfs-caller) "/reflection.md") content)
            (string-append "Reflection updated successfully (" (number->string size)
                           " characters).")))))))
