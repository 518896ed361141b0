;; outside-project: denies file writes outside the project.
;;
;; The project is the payload's cwd (host adapters pass the agent's working directory),
;; else (project-directory): [tools] project_root of harness.toml, [hooks] project_dir,
;; $CLAUDE_PROJECT_DIR, or the directory harness runs in.
;; Stops:   writes and edits (pre_file_write) to an absolute path outside the project
;;          (/etc/hosts, /home/ada/.bashrc), to a relative path that climbs out of it
;;          (../other/x, src/../../x) and to ~/... paths.
;; Lets through: any path inside the project (src/a.py, ./x, /abs/project/x), the
;;          temporary folders /tmp and /var/tmp, /dev/null, and vfs:/// paths (the
;;          home's virtual file system, which has zones of its own).
;; Not seen: symbolic links inside the project that point out of it (a sandboxed guard
;;          cannot look at the disk), and shell commands that write (`echo x > /etc/y`).
;; Enable:  [guards] enable = ["outside-project"] in harness.toml.

(import (harness hooks) (harness guards))

(define also-allowed '("/tmp" "/var/tmp" "/dev/null" "/dev/stdout" "/dev/stderr"))

(define (project-root payload)
  (let ((cwd (payload-text payload "cwd")))
    (if (string-prefix? "/" cwd) cwd (project-directory))))

(define (outside? path root)
  (let ((full (normalize-path path root)))
    (not (any (lambda (place) (path-inside? full place)) (cons root also-allowed)))))

(register-hook 'pre_file_write
  (lambda (payload)
    (let ((path (payload-text payload "path"))
          (root (project-root payload)))
      (cond ((string-null? path) '())
            ((string-prefix? "vfs:" path) '())
            ((or (string=? path "~") (string-prefix? "~/" path))
             (deny "outside-project" (string-append "writing " path " outside the project "
                                                    root)))
            ((outside? path root)
             (deny "outside-project"
                   (string-append "writing " (normalize-path path root)
                                  " outside the project " root)))
            (else '())))))
