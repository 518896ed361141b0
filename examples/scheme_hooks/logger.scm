;; logger.scm: logs lifecycle events to vfs:///hook.log (the folder vfs/ in the home).
;; The Scheme twin of examples/plugins/logger.
;;
;; It writes files, so it needs the UNSANDBOXED tier. In harness.toml:
;;   [tools.tiers]
;;   "logger.scm" = "unsandboxed"
;; Loaded in the default sandboxed tier, the import below fails with a message saying so.

(import (harness hooks) (harness tools) (harness io) (harness json))

(define log-file "vfs:///hook.log")

;; One callback per hook point: the closure remembers which point it logs.
(define (log-event point)
  (lambda (payload)
    (io-append log-file
               (string-append "[" (current-timestamp) "] " (symbol->string point) "\n"
                              (json-stringify payload) "\n"))
    '()))                               ; observe only: no answer

(for-each (lambda (point) (register-hook point (log-event point)))
          '(on_start on_end pre_message post_message))
