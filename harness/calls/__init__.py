"""Where a tool call runs: the per-call pipeline, the tool found and run, arguments, permissions, output cache."""
