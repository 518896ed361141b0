;; safety_guard.scm: blocks `rm -rf` shell commands before they run.
;; The Scheme twin of examples/plugins/safety_guard (it also knows the older tool name
;; run_command). Sandboxed.

(import (harness hooks))

(define shell-tools '("shell_exec" "run_command"))

;; The command argument, or "" when it is missing or not a string. A JSON object arrives
;; as an alist; checking that first keeps a malformed call from crashing the guard.
(define (command-of payload)
  (let* ((args (cdr (assoc "arguments" payload)))
         (entry (and (list? args) (every pair? args) (assoc "command" args))))
    (if (and entry (string? (cdr entry))) (cdr entry) "")))

;; The first pre_tool answer with block #t stops the call; its message is what the model sees.
(register-hook 'pre_tool
  (lambda (payload)
    (if (and (member (cdr (assoc "tool_name" payload)) shell-tools)
             (string-contains (command-of payload) "rm -rf"))
        (list (cons "block" #t)
              (cons "message" "Blocked: rm -rf commands are not allowed"))
        '())))                          ; '() = no answer: the call goes ahead
