;; (harness guards): what the ready guards of tools/guards/ share. A shell command read
;; into the simple commands it runs, the program each one really starts, flags, paths,
;; and the answer that denies. Sandboxed: it only reads strings.
;;
;; A shell command is read the way a shell splits it, closely enough for a guard: words
;; with their quotes removed; `;`, `&&`, `||`, `&`, newlines and parentheses end a
;; pipeline; `|` ends a command inside one. The text of `$(...)`, `...` (backticks),
;; `<(...)` and `>(...)`, the script of `sh -c '...'` (bash, zsh, ...), the words after
;; `eval` and a heredoc fed to a shell (`bash <<EOF`) are read as commands too, so
;; `echo $(rm -rf ~)` is seen.
(define-library (harness guards)
  (export shell-pipelines shell-commands unwrap command-name command-args programs
          short-flag? git-subcommand payload-text deny
          path-name path-segments normalize-path path-inside?)
  (import (scheme base) (scheme char) (srfi 1) (harness strings) (harness guards-base))
  (begin
    ;; -- reading a command line -----------------------------------------------------------
    ;; From (harness guards-base), in Python for speed (harness/host_libraries/shell_words.py):
    ;; (shell-pipelines TEXT) -> every pipeline TEXT runs, inner ones included: a list of
    ;; pipelines, each a list of commands, each a list of words (as written: `sudo rm -rf
    ;; x` keeps its sudo). (unwrap WORDS) -> the words from the program they really run:
    ;; `sudo -u bob env X=1 rm -rf d` -> ("rm" "-rf" "d"). (command-name WORDS) -> the name
    ;; of that program ("rm" for `sudo /bin/rm -rf x`), or "". (programs WORDS) -> the
    ;; names of the programs on the way: ("sudo" "env" "rm").

    ;; Every simple command TEXT runs, each a list of words.
    (define (shell-commands text)
      (concatenate (shell-pipelines text)))

    ;; The words after that program.
    (define (command-args words)
      (let ((inner (unwrap words)))
        (if (null? inner) '() (cdr inner))))

    ;; -- flags and options -------------------------------------------------------------------
    ;; WORD is a cluster of one-letter flags (`-rf`, not `--force`) holding CHAR.
    (define (short-flag? word char)
      (and (string? word) (> (string-length word) 1)
           (char=? (string-ref word 0) #\-)
           (not (char=? (string-ref word 1) #\-))
           (memv char (cdr (string->list word)))
           #t))

    ;; The words of a git command from its subcommand on, git's own options skipped:
    ;; for the args of `git -C repo -c k=v push -f` -> ("push" "-f").
    (define (git-subcommand args)
      (cond ((null? args) '())
            ((member (car args) '("-C" "-c" "--git-dir" "--work-tree" "--namespace"))
             (git-subcommand (if (pair? (cdr args)) (cddr args) '())))
            ((string-prefix? "-" (car args)) (git-subcommand (cdr args)))
            (else args)))

    ;; -- payloads and answers ----------------------------------------------------------
    ;; The string under KEY in PAYLOAD, or "" when it is missing or not a string.
    (define (payload-text payload key)
      (let ((entry (and (list? payload) (every pair? payload) (assoc key payload))))
        (if (and entry (string? (cdr entry))) (cdr entry) "")))

    ;; The answer that denies a permission point, naming the guard that said no.
    (define (deny guard reason)
      (list (cons "denied" #t)
            (cons "reason" (string-append "harness guard " guard ": " reason))))

    ;; -- paths ---------------------------------------------------------------------------------
    ;; The last part of PATH: "id_rsa" for "/home/ada/.ssh/id_rsa" (and for "x/id_rsa/").
    (define (path-name path)
      (let ((parts (path-segments path)))
        (if (null? parts) "" (last parts))))

    ;; The non-empty parts of PATH between slashes.
    (define (path-segments path)
      (remove string-null? (string-split path #\/)))

    ;; PATH made absolute against BASE (an absolute directory), with "." and ".."
    ;; resolved by name (symbolic links are not followed: a guard cannot see the disk).
    (define (normalize-path path base)
      (let loop ((parts (path-segments (if (string-prefix? "/" path)
                                           path
                                           (string-append base "/" path))))
                 (kept '()))
        (cond ((null? parts) (string-append "/" (string-join (reverse kept) "/")))
              ((string=? (car parts) ".") (loop (cdr parts) kept))
              ((string=? (car parts) "..")
               (loop (cdr parts) (if (null? kept) kept (cdr kept))))
              (else (loop (cdr parts) (cons (car parts) kept))))))

    ;; PATH (normalized) is ROOT or below it.
    (define (path-inside? path root)
      (let ((root (normalize-path root "/")))
        (or (string=? path root)
            (string=? root "/")
            (string-prefix? (string-append root "/") path))))))
