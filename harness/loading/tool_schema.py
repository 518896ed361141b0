"""The parameters of a Python tool as a JSON Schema object (a ``.scm`` tool's come from
its parameter alist: harness.loading.scheme_loader.parameters_schema)."""

from __future__ import annotations

from harness.bridge import dumps, loads


def parameters_from_python(parameters: dict | None) -> dict:
    """``parameters`` of ``@tool`` / ``Runtime.register_tool`` as a JSON Schema object (a
    private copy). A JSON Schema object (``{"type": "object", ...}``) is taken as it is; a
    dict of parameter name -> attributes becomes one, every parameter required unless its
    attributes say ``"required": False``. None: no parameters. Raises TypeError for
    anything else or a value with no JSON form."""
    if parameters is None:
        return {"type": "object", "properties": {}}
    if not isinstance(parameters, dict):
        raise TypeError(f"parameters must be a dict (a JSON Schema object, or parameter "
                        f"name -> attributes), not {type(parameters).__name__}")
    try:
        parameters = loads(dumps(parameters))  # a private copy, and proof it is JSON
    except (TypeError, ValueError) as exc:
        raise TypeError(f"parameters have no JSON form: {exc}") from None
    if parameters.get("type") == "object":
        return parameters
    properties: dict = {}
    required: list[str] = []
    for name, attributes in parameters.items():
        if not isinstance(attributes, dict):
            raise TypeError(f"parameter {name}: its attributes must be a dict such as "
                            "{\"type\": \"string\", \"description\": \"...\"}")
        if attributes.pop("required", True) is not False:
            required.append(name)
        properties[name] = attributes
    schema: dict = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema
