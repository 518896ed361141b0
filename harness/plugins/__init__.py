"""Subprocess plugins (SPEC §3): discovery, the schema cache, invocation, the loaded set."""

from harness.plugins.discovery import PluginFile, discover
from harness.plugins.invoke import HookCallResult, ToolCallResult, call_hook, call_tool
from harness.plugins.plugin_set import Plugin, PluginSet
from harness.plugins.schema_cache import PluginSchemas, SchemaCache

__all__ = [
    "HookCallResult", "Plugin", "PluginFile", "PluginSchemas", "PluginSet", "SchemaCache",
    "ToolCallResult", "call_hook", "call_tool", "discover",
]
