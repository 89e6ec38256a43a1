"""The committed OpenAPI document as a judge of responses: `Contract.problems` says what
about one response (its status, content type, headers and body) the document does not
allow, its OpenAPI 3.0 schemas turned once into JSON Schema (draft 4, `nullable` as "or
null") and checked with jsonschema-rs; the tests' conftest puts every response a test
receives through it. Only the API's own addresses are judged: the web page, the metrics
and the document itself are not described by it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema_rs

#: The committed document (as `service.openapi.COMMITTED`, without importing the service).
DOCUMENT = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"

#: Keywords of OpenAPI's schema objects that JSON Schema has no use for.
_DROPPED = frozenset({"discriminator", "example", "xml", "externalDocs", "deprecated"})


def json_schema(schema: Any) -> Any:
    """An OpenAPI 3.0 schema as JSON Schema: refs to `#/definitions/`, `nullable` as a
    choice of null."""
    if isinstance(schema, list):
        return [json_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DROPPED or key == "nullable":
            continue
        if key == "$ref":
            converted[key] = value.replace("#/components/schemas/", "#/definitions/")
        elif key in ("properties", "patternProperties", "definitions"):
            converted[key] = {name: json_schema(sub) for name, sub in value.items()}
        else:
            converted[key] = json_schema(value)
    if schema.get("nullable") is True:
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@dataclass
class Operation:
    method: str
    template: str
    pattern: re.Pattern[str]
    responses: dict[str, Any]


@dataclass
class Contract:
    """The document's operations, and the compiled schemas of their responses."""

    document: dict[str, Any]
    operations: list[Operation] = field(default_factory=list)
    _validators: dict[str, Any] = field(default_factory=dict)
    #: What the document does not publish, so is not judged here: a game registered by a
    #: test alone (`tests/thirdgame`), by its name (a body whose `game` is it) and by the
    #: ids of its games, jobs and matches (an address with one of them).
    unpublished: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.definitions = {
            name: json_schema(schema)
            for name, schema in self.document.get("components", {}).get("schemas", {}).items()
        }
        for template, item in self.document["paths"].items():
            pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            for method, operation in item.items():
                if method in ("get", "post", "put", "patch", "delete"):
                    self.operations.append(
                        Operation(method, template, pattern, operation.get("responses", {}))
                    )

    @classmethod
    def load(cls, path: Path = DOCUMENT) -> Contract:
        return cls(json.loads(path.read_text()))

    def operation(self, method: str, path: str) -> Operation | None:
        for operation in self.operations:
            if operation.method == method.lower() and operation.pattern.match(path):
                return operation
        return None

    def _unpublished(self, path: str, body: bytes | None) -> bool:
        if not self.unpublished:
            return False
        if self.unpublished.intersection(path.split("/")):
            return True
        try:
            value = json.loads(body) if body else None
        except ValueError:
            return False
        return isinstance(value, dict) and value.get("game") in self.unpublished

    def _resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        ref = node.get("$ref")
        if ref is None:
            return node
        section, name = ref.split("/")[-2:]
        found: dict[str, Any] = self.document["components"][section][name]
        return found

    def _validator(self, key: str, schema: Any) -> Any:
        validator = self._validators.get(key)
        if validator is None:
            root = {**json_schema(schema), "definitions": self.definitions}
            validator = jsonschema_rs.Draft4Validator(root)
            self._validators[key] = validator
        return validator

    def component_problems(self, name: str, value: Any) -> list[str]:
        """What the document's component schema `name` does not allow in `value` (empty:
        all is well): for what no response carries as JSON, such as a stream's events."""
        validator = self._validator(f"component {name}", {"$ref": f"#/components/schemas/{name}"})
        return [f"{name}: {error.message}" for error in validator.iter_errors(value)]

    def problems(
        self,
        method: str,
        path: str,
        status: int,
        headers: Mapping[str, str],
        body: bytes | None,
    ) -> list[str]:
        """What the document does not allow in this response (empty: all is well). `body`
        None: not read (a stream). Addresses the document does not describe, and methods
        they do not take, are nobody's business here."""
        operation = self.operation(method, path)
        if operation is None or self._unpublished(path, body):
            return []
        where = f"{method.upper()} {path} -> {status}"
        responses = operation.responses
        response = (
            responses.get(str(status))
            or responses.get(f"{str(status)[0]}XX")
            or responses.get("default")
        )
        if response is None:
            return [f"{where}: status {status} is not documented for {operation.template}"]
        response = self._resolve(response)
        found: list[str] = []
        for name, header in response.get("headers", {}).items():
            header = self._resolve(header)
            value = headers.get(name)
            if value is None:
                if header.get("required"):
                    found.append(f"{where}: the required header {name} is missing")
                continue
            schema = header.get("schema", {})
            typed: Any = value
            if schema.get("type") == "integer":
                if not re.fullmatch(r"-?[0-9]+", value):
                    found.append(f"{where}: header {name}: {value!r} is not an integer")
                    continue
                typed = int(value)
            key = f"{operation.method} {operation.template} {status} header {name}"
            for error in self._validator(key, schema).iter_errors(typed):
                found.append(f"{where}: header {name}: {error.message}")
        content = response.get("content")
        mimetype = (headers.get("Content-Type") or "").split(";")[0].strip()
        if not content:
            if body:
                found.append(f"{where}: a body ({mimetype}) where the document says none")
            return found
        if mimetype not in content:
            found.append(f"{where}: content type {mimetype!r} is not one of {sorted(content)}")
            return found
        schema = content[mimetype].get("schema")
        if body is None or schema is None or mimetype == "text/event-stream":
            return found
        key = f"{operation.method} {operation.template} {status} {mimetype}"
        validator = self._validator(key, schema)
        if mimetype == "application/x-ndjson":
            values = [json.loads(line) for line in body.splitlines() if line.strip()]
        else:
            try:
                values = [json.loads(body)]
            except ValueError:
                return [*found, f"{where}: the body is not JSON: {body[:200]!r}"]
        for value in values:
            for error in validator.iter_errors(value):
                at = "/".join(str(p) for p in error.instance_path)
                found.append(f"{where}: body at /{at}: {error.message}"[:2000])
        return found
