;; temp_override.scm: sets the sampling temperature by context.
;; The Scheme twin of examples/plugins/temp_override. Sandboxed.

(import (harness hooks))

(define temperatures '(("coding" . 0.1) ("creative" . 1.2)))

;; A "request_body" answer is merged into the request key by key, so a nested alist with
;; just the keys to change is enough: {"request_body": {"temperature": 0.1}}.
(register-hook 'pre_api_request
  (lambda (payload)
    (let ((entry (assoc (cdr (assoc "context_name" payload)) temperatures)))
      (if entry
          (list (cons "request_body" (list (cons "temperature" (cdr entry)))))
          '()))))
