"""Loading a tool file (.scm, .py, .hy) and what it registered: the loaders and the registry."""
