"""Scheme tool files: the registry of tools and hooks, the loader, and their libraries."""
