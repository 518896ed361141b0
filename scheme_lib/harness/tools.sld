;; (harness tools): define-tool and the procedures tool files use to work with tools.
(define-library (harness tools)
  (export define-tool call-tool generate-id current-timestamp %register-tool)
  (import (scheme base) (harness tools-base))
  (begin
    ;; (define-tool name (description "...") (parameters '(...)) (execute proc) ...)
    ;; Clauses may come in any order; %register-tool checks their names.
    (define-syntax define-tool
      (syntax-rules ()
        ((_ name (key value) ...)
         (%register-tool 'name (list (cons 'key value) ...)))
        ((_ . rest)
         (syntax-error
          "define-tool: expected (define-tool NAME (description STRING) (parameters ALIST) (execute PROCEDURE)), got"
          (define-tool . rest)))))))
