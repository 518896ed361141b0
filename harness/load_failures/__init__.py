"""When a tool file does not load: its last good version, and the points it was going to guard."""
