;; context_logger.hy: logs context switches, and which context each message goes to,
;; to HOME/vfs/context_log.txt. The Hy twin of examples/plugins/context_logger. Needs
;; the unsandboxed tier (it writes a file).

(import harness.api [hook home])

(defn log-line [text]
  (setv log-file (/ (home) "vfs" "context_log.txt"))
  (.mkdir log-file.parent :parents True :exist-ok True)
  (with [f (open log-file "a" :encoding "utf-8")]
    (.write f (+ text "\n"))))

;; A Hy function returns its last form's value: an observer ends with None (no answer).
(defn [(hook "on_context_switch")] log-switch [payload]
  (log-line f"{(get payload "from_context")} -> {(get payload "to_context")}")
  None)

(defn [(hook "pre_message")] log-message [payload]
  (log-line f"message in {(get payload "context_name")}")
  None)
