"""A small JSON-schema validator for the subset the reasoner uses.

Supported keywords: `type` (a name or a list of names), `properties`, `required`, `additionalProperties`
(boolean or schema), `enum`, `const`, `items`, `minItems`, `maxItems`, `anyOf`, plus `minLength`/`maxLength`
and `minimum`/`maximum`. Annotations (`title`, `description`, `default`, `examples`, `$schema`) are ignored.
Any other keyword raises `SchemaError` up front: silently ignoring e.g. `pattern` would let a caller believe a
constraint is checked when it is not. Grammar-constrained decoding makes violations rare, but servers without
schema support (or with a partial one) still produce them, so every reply is checked here.
"""

from __future__ import annotations

import json
import math
from typing import Any

_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")
_CHECKED = frozenset(
    {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "enum",
        "const",
        "items",
        "minItems",
        "maxItems",
        "anyOf",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
    }
)
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$schema", "$comment"})


class SchemaError(ValueError):
    """The caller's schema uses a keyword or shape this validator does not support (a programming error)."""


def check_schema(schema: Any, path: str = "#") -> None:
    """Raise `SchemaError` if `schema` is outside the supported subset."""
    if not isinstance(schema, dict):
        raise SchemaError(f"{path}: a schema must be a JSON object, got {type(schema).__name__}")
    unknown = set(schema) - _CHECKED - _ANNOTATIONS
    if unknown:
        raise SchemaError(f"{path}: unsupported keyword(s) {sorted(unknown)}; supported: {sorted(_CHECKED)}")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        for name in names:
            if name not in _TYPES:
                raise SchemaError(f"{path}/type: unknown type {name!r}")
    props = schema.get("properties", {})
    if not isinstance(props, dict):
        raise SchemaError(f"{path}/properties: must be an object")
    for key, sub in props.items():
        check_schema(sub, f"{path}/properties/{key}")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        raise SchemaError(f"{path}/required: must be a list of strings")
    extra = schema.get("additionalProperties", True)
    if not isinstance(extra, bool):
        check_schema(extra, f"{path}/additionalProperties")
    if "items" in schema:
        check_schema(schema["items"], f"{path}/items")
    if "enum" in schema and (not isinstance(schema["enum"], list) or not schema["enum"]):
        raise SchemaError(f"{path}/enum: must be a non-empty list")
    if "anyOf" in schema:
        if not isinstance(schema["anyOf"], list) or not schema["anyOf"]:
            raise SchemaError(f"{path}/anyOf: must be a non-empty list")
        for i, sub in enumerate(schema["anyOf"]):
            check_schema(sub, f"{path}/anyOf/{i}")
    for key in ("minItems", "maxItems", "minLength", "maxLength"):
        if key in schema and not (isinstance(schema[key], int) and not isinstance(schema[key], bool)):
            raise SchemaError(f"{path}/{key}: must be an integer")


def validate(value: Any, schema: dict[str, Any]) -> list[str]:
    """Return the violations of `schema` by `value` (empty when valid), each prefixed with a JSON pointer."""
    errors: list[str] = []
    _validate(value, schema, "", errors)
    return errors


def _type_matches(value: Any, name: str) -> bool:
    # bool is a subclass of int in Python but a separate type in JSON.
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value) and value.is_integer())
    return isinstance(value, int | float)  # "number"


def json_equal(a: Any, b: Any) -> bool:
    """Equality in the JSON sense: `1 == true` is False, `1 == 1.0` is True, key order does not matter."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _validate(value: Any, schema: dict[str, Any], path: str, errors: list[str]) -> None:
    where = path or "/"
    if "anyOf" in schema:
        branches: list[list[str]] = []
        for sub in schema["anyOf"]:
            sub_errors: list[str] = []
            _validate(value, sub, path, sub_errors)
            if not sub_errors:
                break
            branches.append(sub_errors)
        else:
            detail = "; ".join(b[0] for b in branches)
            errors.append(f"{where}: matches none of anyOf ({detail})")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_matches(value, n) for n in names):
            errors.append(f"{where}: expected {'/'.join(names)}, got {_short(value)}")
            return  # further checks would only repeat the type error
    if "const" in schema and not json_equal(value, schema["const"]):
        errors.append(f"{where}: expected {_short(schema['const'])}, got {_short(value)}")
    if "enum" in schema and not any(json_equal(value, option) for option in schema["enum"]):
        errors.append(f"{where}: {_short(value)} is not one of the {len(schema['enum'])} allowed values")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            errors.append(f"{where}: shorter than {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            errors.append(f"{where}: longer than {schema['maxLength']} characters")
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append(f"{where}: {value} < minimum {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            errors.append(f"{where}: {value} > maximum {schema['maximum']}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append(f"{where}: {len(value)} items, at least {schema['minItems']} required")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append(f"{where}: {len(value)} items, at most {schema['maxItems']} allowed")
        if "items" in schema:
            for i, item in enumerate(value):
                _validate(item, schema["items"], f"{path}/{i}", errors)
    if isinstance(value, dict):
        props: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{where}: missing required property {key!r}")
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                _validate(item, props[key], f"{path}/{key}", errors)
            elif extra is False:
                errors.append(f"{where}: unexpected property {key!r}")
            elif isinstance(extra, dict):
                _validate(item, extra, f"{path}/{key}", errors)
