;; greet.hy: the plugin guide's quick-start tool, in Hy.
;; The Hy twin of examples/plugins/greet. Needs the unsandboxed tier.
;;
;; Try it: harness call greet '{"name": "Ada"}'   ->  Hello, Ada!

(import harness.api [tool])

;; parameters: name -> JSON Schema attributes; every parameter is required unless it
;; says "required" False. The tool takes the arguments as a dict.
(defn [(tool :description "Greet someone by name"
             :parameters {"name" {"type" "string" "description" "Name to greet"}})]
  greet [args]
  f"Hello, {(get args "name")}!")
