;; context_injector.hy: puts a timestamp in front of every prompt, and tells the model
;; which context it is in. The Hy twin of examples/plugins/context_injector. Needs the
;; unsandboxed tier.

(import datetime [datetime UTC]
        harness.api [hook])

(defn timestamp []
  (.strftime (datetime.now UTC) "%Y%m%d-%H%Mz"))

;; pre_message may answer a new "prompt"; the last hook to answer one wins.
(defn [(hook "pre_message")] stamp-prompt [payload]
  {"prompt" f"[{(timestamp)}]\n{(get payload "prompt")}"})

;; Every non-empty "inject" goes in front of the system prompt.
(defn [(hook "pre_system_prompt")] name-context [payload]
  {"inject" f"Current context: {(get payload "context_name")}"})
