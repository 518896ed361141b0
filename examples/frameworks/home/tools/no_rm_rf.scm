;; One guard, written once on a permission point: it holds in every framework
;; integration (examples/frameworks/*.py) and in every host harness is installed in.
(register-hook 'pre_shell_exec
  (lambda (payload)
    (let ((command (cdr (assoc "command" payload))))
      (if (string-contains command "rm -rf")
          `(("denied" . #t)
            ("reason" . ,(string-append "harness: destructive delete refused: " command)))
          '()))))
