;; destructive-deletes: denies shell commands that delete a tree of files without asking.
;;
;; Stops:   rm -rf / -fr / -r -f / --recursive --force (also behind sudo, xargs, env,
;;          inside $(...) and bash -c '...'); rm -r of /, ~, $HOME, . or *;
;;          find ... -delete and find ... -exec rm; git clean -f (any form but a dry run);
;;          mkfs.*; dd of=/dev/...; shred.
;; Lets through: rm file.txt, rm -r build (no force, not a root), find . -name x,
;;          git clean -n, ls, everything else.
;; Enable:  [guards] enable = ["destructive-deletes"] in harness.toml.

(import (harness hooks) (harness guards))

;; rm with both a recursive and a force flag: -rf, -fr, -Rf, -r -f, --recursive --force
(define (recursive? args)
  (any (lambda (w) (or (short-flag? w #\r) (short-flag? w #\R) (string=? w "--recursive")))
       args))

(define (force? args)
  (any (lambda (w) (or (short-flag? w #\f) (string=? w "--force"))) args))

;; targets whose recursive removal is never what anyone meant
(define roots '("/" "/*" "~" "~/" "~/*" "$HOME" "${HOME}" "." "./" ".." "*" ".*"))

(define (rm-problem args)
  (cond ((and (recursive? args) (force? args))
         "rm with -r and -f deletes a whole tree without asking")
        ((and (recursive? args) (any (lambda (w) (member w roots)) args))
         "rm -r of the root, the home or the working directory")
        (else #f)))

(define (find-problem args)
  (cond ((member "-delete" args) "find -delete deletes every file it matches")
        ((and (or (member "-exec" args) (member "-execdir" args))
              (any (lambda (w) (member (path-name w) '("rm" "shred"))) args))
         "find -exec rm deletes every file it matches")
        (else #f)))

;; git clean -f (-d, -x, -X...) deletes untracked files; -n is a dry run
(define (git-problem git-args)
  (define args (git-subcommand git-args))
  (and (pair? args) (string=? (car args) "clean")
       (any (lambda (w) (or (short-flag? w #\f) (string=? w "--force"))) args)
       (not (any (lambda (w) (or (short-flag? w #\n) (string=? w "--dry-run"))) args))
       "git clean -f deletes untracked files, which git cannot bring back"))

(define (problem words)
  (let ((name (command-name words)) (args (command-args words)))
    (cond ((string=? name "rm") (rm-problem args))
          ((string=? name "find") (find-problem args))
          ((string=? name "git") (git-problem args))
          ((string-prefix? "mkfs" name) "mkfs erases a file system")
          ((string=? name "shred") "shred destroys files beyond recovery")
          ((and (string=? name "dd")
                (any (lambda (w) (string-prefix? "of=/dev/" w)) args))
           "dd onto a device overwrites it")
          (else #f))))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let loop ((commands (shell-commands (payload-text payload "command"))))
      (cond ((null? commands) '())                  ; no answer: the host decides
            ((problem (car commands))
             => (lambda (why)
                  (deny "destructive-deletes"
                        (string-append why ": " (string-join (car commands) " ")))))
            (else (loop (cdr commands)))))))
