;; tool_filter.hy: restricts the tools offered to the model, by context.
;; The Hy twin of examples/plugins/tool_filter. Needs the unsandboxed tier.

(import harness.api [hook])

(setv file-tools ["file_head" "file_tail" "file_lines" "file_grep"])

;; Answers combine across hooks: "include" lists intersect, "exclude" lists add up.
(defn [(hook "pre_api_tools")] filter-tools [payload]
  (if (= (.get payload "context_name") "safe")
      {"include" ["update_goals" "update_reflection"]}   ; an allowlist
      {"exclude" file-tools}))
