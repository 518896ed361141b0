;; curl-pipe-shell: denies running a script straight from the network.
;;
;; Stops:   curl ... | sh (bash, zsh, sudo bash, python, perl, ruby, node reading the
;;          script from the pipe); wget -O- ... | sh; bash <(curl ...);
;;          sh -c "$(curl ...)"; eval "$(wget -qO- ...)"; source <(curl ...).
;; Lets through: curl -o install.sh URL (download it, read it, then run it),
;;          curl URL | jq ., curl URL | python3 -m json.tool, plain curl and wget.
;; Enable:  [guards] enable = ["curl-pipe-shell"] in harness.toml.

(import (harness hooks) (harness guards))

(define fetchers '("curl" "wget" "fetch" "http" "https" "aria2c"))
(define shells '("sh" "bash" "zsh" "dash" "ksh" "fish" "source" "." "eval"))
(define interpreters '("python" "python3" "perl" "ruby" "node" "php"))

(define (fetcher? words) (member (command-name words) fetchers))

;; a command that runs what comes down the pipe: a shell, or an interpreter given no
;; script of its own (python3 -m json.tool has one)
(define (runs-stdin? words)
  (let ((name (command-name words)) (args (command-args words)))
    (or (and (member name shells) (not (any (lambda (w) (short-flag? w #\c)) args)))
        (and (member name interpreters)
             (every (lambda (w) (or (string=? w "-") (string-prefix? "-" w))) args)
             (not (any (lambda (w) (member w '("-m" "-c" "-e"))) args))))))

;; fetch | ... | shell
(define (piped-into-shell? pipeline)
  (let ((from (find-tail fetcher? pipeline)))
    (and from (any runs-stdin? (cdr from)))))

;; a shell given a fetch's output as its script: bash <(curl ...), sh -c "$(curl ...)"
(define (fetches? word)
  (any (lambda (fetcher) (string-contains word (string-append fetcher " "))) fetchers))

(define (substituted-into-shell? words)
  (and (member (command-name words) shells)
       (any (lambda (w) (and (or (string-contains w "$(") (string-contains w "<(")
                                 (string-contains w "`"))
                             (fetches? w)))
            (command-args words))))

(define (problem pipeline)
  (or (piped-into-shell? pipeline) (any substituted-into-shell? pipeline)))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let ((pipeline (find problem (shell-pipelines (payload-text payload "command")))))
      (if pipeline
          (deny "curl-pipe-shell"
                (string-append "this runs a script fetched from the network without "
                               "anyone reading it; download it to a file and look at it "
                               "first: "
                               (string-join (map (lambda (c) (string-join c " ")) pipeline)
                                            " | ")))
          '()))))
