"""greet.py: the plugin guide's quick-start tool, in Python.

The Python twin of examples/plugins/greet. Needs the unsandboxed tier.
Try it: harness call greet '{"name": "Ada"}'   ->  Hello, Ada!
"""

from harness.api import tool


# parameters: name -> JSON Schema attributes; every parameter is required unless it says
# "required": False (a whole JSON Schema object works too). The tool gets a dict.
@tool(description="Greet someone by name",
      parameters={"name": {"type": "string", "description": "Name to greet"}})
def greet(args: dict) -> str:
    return f"Hello, {args['name']}!"
