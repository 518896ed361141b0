;; guardrails.hy: hands control back to the user after a dangerous tool call, and
;; charges 5 fuel for it. The Hy twin of examples/plugins/guardrails. Needs the
;; unsandboxed tier.

(import harness.api [hook])

(setv dangerous-tools #{"shell_exec" "write_file" "delete_file"})

;; "fallback": the last answer wins; "fuel_delta" values add up (fuel never goes below 0).
(defn [(hook "post_tool_batch")] after-dangerous-calls [payload]
  (when (any (gfor call (.get payload "tool_calls" []) (in (get call "name") dangerous-tools)))
    {"fallback" "call_user" "fuel_delta" -5}))
