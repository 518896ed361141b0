;; git-push: denies force pushes and pushes to the default branch.
;;
;; Stops:   git push --force / -f / +branch refspecs / --mirror; any push (forced or not, or a --delete) whose refspec names
;;          main or master: `git push origin main`, `git push origin HEAD:master`,
;;          `git push -u origin feature:refs/heads/main`.
;; Lets through: git push origin feature, git push -u origin my-branch, and
;;          --force-with-lease to any branch but main/master (the lease refuses to
;;          overwrite work the agent has not seen, which is what a rebased feature branch
;;          needs). A bare `git push` passes: the guard cannot see which branch is checked
;;          out (a hook with the unsandboxed tier could ask git).
;; Enable:  [guards] enable = ["git-push"] in harness.toml. Other default branch names:
;;          add them to default-branches below in a copy of this file.

(import (harness hooks) (harness guards))

(define default-branches '("main" "master"))

;; the branch a refspec pushes to: "main" for main, HEAD:main, +x:refs/heads/main
(define (destination refspec)
  (let* ((spec (if (string-prefix? "+" refspec) (substring refspec 1 (string-length refspec))
                   refspec))
         (colon (string-index spec #\:))
         (dest (if colon (substring spec (+ colon 1) (string-length spec)) spec)))
    (if (string-prefix? "refs/heads/" dest)
        (substring dest 11 (string-length dest))
        dest)))

;; the words after the remote: the refspecs (options and their values left out)
(define options-with-values '("-o" "--push-option" "--repo" "--receive-pack" "--exec"))

(define (positionals args)
  (let loop ((args args) (found '()))
    (cond ((null? args) (reverse found))
          ((member (car args) options-with-values)
           (loop (if (pair? (cdr args)) (cddr args) '()) found))
          ((string-prefix? "-" (car args)) (loop (cdr args) found))
          (else (loop (cdr args) (cons (car args) found))))))

(define (forced? args refspecs)
  (or (any (lambda (w) (or (short-flag? w #\f) (string=? w "--force") (string=? w "--mirror")))
           args)
      (any (lambda (spec) (string-prefix? "+" spec)) refspecs)))

(define (push-problem words)
  (let ((args (git-subcommand (command-args words))))
    (and (string=? (command-name words) "git")
         (pair? args) (string=? (car args) "push")
         (let* ((options (cdr args))
                (refspecs (let ((p (positionals options))) (if (null? p) '() (cdr p))))
                (to-default (find (lambda (spec) (member (destination spec) default-branches))
                                  refspecs)))
           (cond (to-default
                  (string-append "pushing to the default branch (" (destination to-default)
                                 ") goes past review; push a branch and open a pull request"))
                 ((forced? options refspecs)
                  "a force push rewrites the remote's history; --force-with-lease is allowed")
                 (else #f))))))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let loop ((commands (shell-commands (payload-text payload "command"))))
      (cond ((null? commands) '())
            ((push-problem (car commands))
             => (lambda (why)
                  (deny "git-push" (string-append why ": " (string-join (car commands) " ")))))
            (else (loop (cdr commands)))))))
