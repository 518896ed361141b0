;; greet.scm: the plugin guide's quick-start tool, as a Scheme tool.
;; The Scheme twin of examples/plugins/greet. Sandboxed.
;;
;; Try it: harness call greet '{"name": "Ada"}'   ->  Hello, Ada!

(import (harness tools))

;; Each parameter is (name . ((attr . value) ...)); it becomes a JSON Schema property and
;; is required unless it says (required . #f).
(define-tool greet
  (description "Greet someone by name")
  (parameters '((name . ((type . "string") (description . "Name to greet")))))
  (execute (lambda (args)               ; args: the arguments as an alist
             (string-append "Hello, " (cdr (assoc "name" args)) "!"))))
