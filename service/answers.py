"""The base of every schema of something the server sends (`Answer`): its fields are the
ones the server always sends, `required` in the OpenAPI document, but those it names
optional. Responses are built by hand for speed, so these schemas only document them; the
test suite checks every response it receives against the committed document."""

from __future__ import annotations

from typing import ClassVar

import marshmallow as ma
from marshmallow import fields


class Answer(ma.Schema):
    """A response's schema: every field `required` but those named in `OPTIONAL`."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        field_obj.required = field_name not in self.OPTIONAL
