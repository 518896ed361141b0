;; secrets: denies reading or writing files that hold secrets, with the file tools or
;; with a shell command that prints, copies or sends one.
;;
;; Stops:   .env and .env.* files (.env.local, .env.production, prod.env); private keys
;;          (id_rsa, id_ed25519, *.pem, *.key, *.p12, *.pfx, *.jks, *.keystore);
;;          credentials (.aws/credentials, .netrc, .pgpass, .git-credentials, .pypirc,
;;          .npmrc, .docker/config.json, .kube/config, credentials.json,
;;          service-account*.json); in the shell: cat, less, head, grep, cp,
;;          base64, source ... of such a file, `< .env`, and curl, wget, scp, rsync
;;          sending one (`curl -d @.env`, `curl -F f=@id_rsa`, `scp .env host:`).
;; Lets through: .env.example / .sample / .template / .dist / .defaults, public keys
;;          (id_rsa.pub), ls .env, echo .env >> .gitignore, everything else.
;; Enable:  [guards] enable = ["secrets"] in harness.toml.

(import (harness hooks) (harness guards))

;; .env templates hold no secrets: they are meant to be read and committed
(define env-templates '("example" "sample" "template" "dist" "defaults" "schema"))

(define (env-file? name)
  (or (string=? name ".env")
      (and (string-prefix? ".env." name)
           (not (member (substring name 5 (string-length name)) env-templates)))
      (and (string-suffix? ".env" name)
           (not (any (lambda (t) (string-prefix? t name)) env-templates)))))

(define key-names '("id_rsa" "id_dsa" "id_ecdsa" "id_ed25519"))
(define key-suffixes '(".pem" ".key" ".p12" ".pfx" ".jks" ".keystore"))
(define credential-names
  '(".netrc" "_netrc" ".pgpass" ".git-credentials" ".pypirc" ".npmrc"
    "credentials.json" "client_secret.json"))
;; files that are secrets only in their folder: (folder name)
(define credential-places
  '((".aws" "credentials") (".docker" "config.json") (".kube" "config")
    ("gh" "hosts.yml")))

(define (secret-file? path)
  (let* ((parts (path-segments path))
         (name (if (null? parts) "" (last parts)))
         (folder (if (< (length parts) 2) "" (list-ref parts (- (length parts) 2)))))
    (or (env-file? name)
        (member name key-names)
        (any (lambda (suffix) (string-suffix? suffix name)) key-suffixes)
        (member name credential-names)
        (string-prefix? "service-account" name)
        (member (list folder name) credential-places))))

;; -- the shell ----------------------------------------------------------------------------
;; programs that print, copy, send or run what a file holds
(define readers
  '("cat" "tac" "less" "more" "head" "tail" "bat" "batcat" "nl" "strings" "xxd" "od"
    "hexdump" "base64" "grep" "egrep" "fgrep" "rg" "ag" "awk" "sed" "cut" "sort" "uniq"
    "diff" "cp" "mv" "tar" "zip" "gzip" "source" "." "openssl" "gpg"
    "python" "python3" "node" "ruby" "perl" "jq" "yq" "vim" "vi" "nano" "emacs" "code"))

;; the file a word names: `.env`, and in `@.env` (curl -d @FILE), `file=@id_rsa`
;; (curl -F), `--post-file=.env` (wget), `<.env` (a redirection) the part after @, = or <
(define (named-file word)
  (let loop ((i (- (string-length word) 1)))
    (cond ((< i 0) word)
          ((memv (string-ref word i) '(#\@ #\= #\<))
           (substring word (+ i 1) (string-length word)))
          (else (loop (- i 1))))))

;; the file a command's input is redirected from (`< .env`, `<.env`), or #f
(define (input-file words)
  (cond ((member "<" words) => (lambda (at) (and (pair? (cdr at)) (cadr at))))
        ((find (lambda (w) (string-prefix? "<" w)) words) => named-file)
        (else #f)))

(define senders '("curl" "wget" "http" "https" "nc" "scp" "rsync"))

(define (shell-problem words)
  (let ((name (command-name words)) (args (command-args words)))
    (cond ((and (member name readers) (find secret-file? args))
           => (lambda (file) (string-append name " reads " file)))
          ((and (member name senders) (find (lambda (w) (secret-file? (named-file w))) args))
           => (lambda (word) (string-append name " sends " (named-file word))))
          ((let ((file (input-file words))) (and file (secret-file? file) file))
           => (lambda (file) (string-append "the input comes from " file)))
          (else #f))))

;; -- the hooks ----------------------------------------------------------------------------
(define (file-hook verb)
  (lambda (payload)
    (let ((path (payload-text payload "path")))
      (if (secret-file? path)
          (deny "secrets" (string-append verb " " path ", a file that holds secrets"))
          '()))))

(register-hook 'pre_file_read (file-hook "reading"))
(register-hook 'pre_file_write (file-hook "writing"))

(register-hook 'pre_shell_exec
  (lambda (payload)
    (let loop ((commands (shell-commands (payload-text payload "command"))))
      (cond ((null? commands) '())
            ((shell-problem (car commands))
             => (lambda (why)
                  (deny "secrets" (string-append why ", a file that holds secrets: "
                                                 (string-join (car commands) " ")))))
            (else (loop (cdr commands)))))))
