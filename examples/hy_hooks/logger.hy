;; logger.hy: logs lifecycle events to HOME/vfs/hook.log.
;; The Hy twin of examples/plugins/logger. Needs the unsandboxed tier (it writes a file).

(import datetime [datetime UTC]
        json
        harness.api [hook home])

(defn log-event [point]
  "An observer of `point` that appends the event and its payload to the log."
  (defn observe [payload]
    (setv log-file (/ (home) "vfs" "hook.log"))
    (.mkdir log-file.parent :parents True :exist-ok True)
    (with [f (open log-file "a" :encoding "utf-8")]
      (.write f f"[{(.strftime (datetime.now UTC) "%Y%m%d-%H%Mz")}] {point}\n")
      (.write f (+ (json.dumps payload) "\n")))
    None)                               ; observe only: no answer
  observe)

;; `hook` is an ordinary function: applied in a loop, it registers one observer per point.
(for [point ["on_start" "on_end" "pre_message" "post_message"]]
  ((hook point) (log-event point)))
