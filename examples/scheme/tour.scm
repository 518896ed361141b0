;; A short tour of the Scheme that harness hooks are written in.
(import (scheme base) (scheme write) (srfi 1))

(define (show label value)
  (display label) (display ": ") (write value) (newline))

;; Named let loops run in constant space; deep recursion works too.
(show "sum 1..1e6" (let loop ((i 0) (acc 0)) (if (> i 1000000) acc (loop (+ i 1) (+ acc i)))))

;; Records, hygienic macros, guard.
(define-record-type call (make-call tool args) call? (tool call-tool) (args call-args))
(define-syntax unless-blocked
  (syntax-rules () ((_ c body ...) (if (equal? (call-tool c) "shell_exec") 'blocked (begin body ...)))))
(show "guarded" (unless-blocked (make-call "shell_exec" '()) 'ran))
(show "filtered" (filter (lambda (c) (not (equal? (call-tool c) "rm"))) '()))
(show "caught" (guard (e ((error-object? e) (error-object-message e))) (car '())))
(show "quasiquote" `(request_body . ((temperature . ,(/ 1 10)))))
