;; context_injector.scm: puts a timestamp in front of every prompt.
;; The Scheme twin of examples/plugins/context_injector. Sandboxed: it only reads the
;; payload and the clock.

(import (harness hooks) (harness tools))

;; pre_message may answer a new "prompt"; the last hook to answer one wins.
(register-hook 'pre_message
  (lambda (payload)
    (list (cons "prompt"
                (string-append "[" (current-timestamp) "]\n"   ; "YYYYMMDD-HHMMz", UTC
                               (cdr (assoc "prompt" payload)))))))

;; One file may register several hooks. This one also tells the model which context it
;; is in: every non-empty "inject" goes in front of the system prompt.
(register-hook 'pre_system_prompt
  (lambda (payload)
    (list (cons "inject"
                (string-append "Current context: " (cdr (assoc "context_name" payload)))))))
