;; guardrails.scm: hands control back to the user after a dangerous tool call, and
;; charges 5 fuel for it. The Scheme twin of examples/plugins/guardrails. Sandboxed.

(import (harness hooks))

(define dangerous-tools '("shell_exec" "write_file" "delete_file"))

(define (dangerous? call)               ; call = (("name" . "...") ("arguments" . ...))
  (member (cdr (assoc "name" call)) dangerous-tools))

;; "fallback" (call_agent / call_user): the last answer wins. "fuel_delta" values add up,
;; and the remaining fuel never goes below 0.
(register-hook 'post_tool_batch
  (lambda (payload)
    (if (any dangerous? (cdr (assoc "tool_calls" payload)))
        (list (cons "fallback" "call_user")
              (cons "fuel_delta" -5))
        '())))
