;; sudo: denies shell commands that run as another user (root, mostly).
;;
;; Stops:   sudo, doas, pkexec and su, wherever they appear: first, after env or nohup,
;;          after a pipe (curl ... | sudo sh), inside $(...) or bash -c '...'.
;; Lets through: everything else, including words that only mention sudo
;;          (echo "no sudo here", grep sudo /etc/group, man sudo).
;; Enable:  [guards] enable = ["sudo"] in harness.toml.

(import (harness hooks) (harness guards))

(define elevators '("sudo" "doas" "pkexec" "su"))

;; the elevating program a command goes through, or #f: programs lists the wrappers
;; too, so `env sudo rm x` finds sudo
(define (elevator words)
  (find (lambda (program) (member program elevators)) (programs words)))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let loop ((commands (shell-commands (payload-text payload "command"))))
      (cond ((null? commands) '())
            ((elevator (car commands))
             => (lambda (program)
                  (deny "sudo"
                        (string-append program " runs a command with another user's "
                                       "rights; run it yourself if it is needed: "
                                       (string-join (car commands) " ")))))
            (else (loop (cdr commands)))))))
