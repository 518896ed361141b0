"""Where hook and tool code runs: the per-thread context (with the hook points running: the re-entrancy
guard), Scheme and Python calls under a tier's limits, and a file's memory account."""
