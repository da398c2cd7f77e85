"""The fields a memory is written with: Content, Type, Tags. Errors appear at the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from nicegui import ui
from pydantic import BaseModel

from domain.content import MAX_CONTENT
from domain.enums import MemoryType
from domain.errors import InvalidInput
from domain.schemas import parse
from ui.components.labels import TYPE_ORDER, TYPE_SINGULAR

SchemaT = TypeVar("SchemaT", bound=BaseModel)
TAGS_HINT = "Optional, comma-separated, e.g. body:knee, time:morning"


def split_tags(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


class MemoryForm:
    def __init__(self, content: str = "", memory_type: MemoryType | None = None, tags: Sequence[str] = ()) -> None:
        self.content = (
            ui.textarea("Content", value=content)
            .props(f"outlined autogrow autofocus counter maxlength={MAX_CONTENT}")
            .classes("w-full")
            .mark("field-content")
        )
        self.type = (
            ui.select(
                {t.value: TYPE_SINGULAR[t] for t in TYPE_ORDER},
                label="Type",
                value=memory_type.value if memory_type else None,
            )
            .props("outlined")
            .classes("w-full")
            .mark("field-type")
        )
        self.tags = (
            ui.input("Tags", value=", ".join(tags)).props(f'outlined hint="{TAGS_HINT}"').classes("w-full")
        ).mark("field-tags")
        for element in (self.content, self.type, self.tags):
            element.on_value_change(lambda e: self._clear(e.sender))

    def values(self) -> dict[str, object]:
        return {
            "content": self.content.value or "",
            "type": self.type.value,
            "tags": split_tags(self.tags.value or ""),
        }

    def parse(self, schema: type[SchemaT]) -> SchemaT:
        """Validate the fields with the domain's schema; raises InvalidInput naming the field."""
        values = self.values()
        try:
            return parse(schema, **values)
        except InvalidInput as error:
            if error.field == "type" and values["type"] is None:
                raise InvalidInput("Type: choose one.", field="type") from None
            raise

    def show_error(self, error: InvalidInput) -> None:
        """Put the message at its field (content when the field is not one of ours)."""
        self.clear_errors()
        field = (error.field or "content").split(".")[0]
        target = {"type": self.type, "tags": self.tags}.get(field, self.content)
        target.error = str(error)
        target.run_method("focus")

    def clear_errors(self) -> None:
        for element in (self.content, self.type, self.tags):
            element.error = None

    @staticmethod
    def _clear(element: ui.textarea | ui.select | ui.input) -> None:
        if element.error:
            element.error = None
