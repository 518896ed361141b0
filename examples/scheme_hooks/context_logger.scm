;; context_logger.scm: logs context switches, and which context each message goes to,
;; to vfs:///context_log.txt. The Scheme twin of examples/plugins/context_logger.
;;
;; It writes files, so it needs the UNSANDBOXED tier. In harness.toml:
;;   [tools.tiers]
;;   "context_logger.scm" = "unsandboxed"

(import (harness hooks) (harness io))

(define log-file "vfs:///context_log.txt")

(define (log-line . parts)
  (io-append log-file (string-append (apply string-append parts) "\n")))

;; Observers: whatever they return is ignored, so they answer '().
(register-hook 'on_context_switch
  (lambda (payload)
    (log-line (cdr (assoc "from_context" payload)) " -> " (cdr (assoc "to_context" payload)))
    '()))

(register-hook 'pre_message
  (lambda (payload)
    (log-line "message in " (cdr (assoc "context_name" payload)))
    '()))
