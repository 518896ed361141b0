;; disk_usage.hy: the bytes under a path, as `du -sh` would say them.
;; The Hy twin of examples/plugins/disk_usage (which has no Scheme twin: Scheme cannot
;; see file sizes). Needs the unsandboxed tier.

(import os
        harness.api [tool])

(defn human [size]
  (for [unit ["B" "K" "M" "G" "T"]]
    (when (< size 1024)
      (return (if (= unit "B") f"{size}B" f"{size :.1f}{unit}")))
    (setv size (/ size 1024)))
  f"{size :.1f}P")

(defn [(tool "disk_usage" :description "Disk usage of a path (like du -sh)"
             :parameters {"path" {"type" "string" "description" "file or directory"}})]
  disk-usage [args]
  (setv path (get args "path"))
  (when (not (os.path.exists path))
    (raise (FileNotFoundError f"no such file or directory: {path}")))
  (setv total (if (os.path.isfile path)
                  (os.path.getsize path)
                  (sum (gfor [root dirs files] (os.walk path)
                             name files
                             :setv full (os.path.join root name)
                             :if (not (os.path.islink full))
                             (os.path.getsize full)))))
  f"{(human total)}\t{path}")
