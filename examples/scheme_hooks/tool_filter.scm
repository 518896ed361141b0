;; tool_filter.scm: restricts the tools offered to the model, by context.
;; The Scheme twin of examples/plugins/tool_filter. Sandboxed.

(import (harness hooks))

(define file-tools '("file_head" "file_tail" "file_lines" "file_grep"))

;; Answers combine across hooks: "include" lists intersect, "exclude" lists add up.
(register-hook 'pre_api_tools
  (lambda (payload)
    ;; %context-name% is the payload's context_name, bound for every hook call
    (if (equal? %context-name% "safe")
        (list (cons "include" (list "update_goals" "update_reflection")))  ; allowlist
        (list (cons "exclude" file-tools)))))
