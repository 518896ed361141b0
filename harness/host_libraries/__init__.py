"""The Python halves of the (harness ...) Scheme libraries: the procedures Scheme code calls on the host."""
