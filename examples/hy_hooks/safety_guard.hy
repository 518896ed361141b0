;; safety_guard.hy: blocks `rm -rf` shell commands before they run.
;; The Hy twin of examples/plugins/safety_guard and scheme_hooks/safety_guard.scm.
;; Hy runs as Python: give this file the unsandboxed tier in harness.toml.

(import harness.api [hook])

(setv shell-tools #{"shell_exec" "run_command"})

(defn command-of [payload]
  "The command argument, or \"\" when it is missing or not a string."
  (setv args (.get payload "arguments"))
  (setv command (when (isinstance args dict) (.get args "command")))
  (if (isinstance command str) command ""))

;; The first pre_tool answer with "block" True stops the call; its message is what the
;; model sees. Returning None means no answer: the call goes ahead.
(defn [(hook "pre_tool")] no-rm-rf [payload]
  (when (and (in (.get payload "tool_name") shell-tools)
             (in "rm -rf" (command-of payload)))
    {"block" True "message" "Blocked: rm -rf commands are not allowed"}))
