;; SRFI 2: and-let*
(define-library (srfi 2)
  (export and-let*)
  (import (scheme base))
  (begin
    (define-syntax and-let*
      (syntax-rules ()
        ((_ ()) #t)
        ((_ () body ...) (let () body ...))
        ((_ ((var expr) rest ...) body ...)
         (let ((var expr)) (if var (and-let* (rest ...) body ...) #f)))
        ((_ ((expr) rest ...) body ...)
         (if expr (and-let* (rest ...) body ...) #f))
        ((_ (var rest ...) body ...)
         (if var (and-let* (rest ...) body ...) #f))))))
