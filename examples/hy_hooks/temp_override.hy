;; temp_override.hy: sets the sampling temperature by context.
;; The Hy twin of examples/plugins/temp_override. Needs the unsandboxed tier.

(import harness.api [hook])

(setv temperatures {"coding" 0.1 "creative" 1.2})

;; A "request_body" answer is merged into the request key by key: the keys to change
;; are enough.
(defn [(hook "pre_api_request")] temperature-by-context [payload]
  (setv temperature (.get temperatures (.get payload "context_name")))
  (when (is-not temperature None)
    {"request_body" {"temperature" temperature}}))
