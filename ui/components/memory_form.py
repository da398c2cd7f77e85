"""The fields a memory is written with: Content, Type, Tags. Errors appear at the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from nicegui import events, ui
from pydantic import BaseModel

from domain.content import MAX_CONTENT
from domain.enums import MemoryType
from domain.errors import InvalidInput
from domain.schemas import parse
from ui.components.labels import TYPE_ORDER, TYPE_SINGULAR

SchemaT = TypeVar("SchemaT", bound=BaseModel)
TAGS_HINT = "Optional. Press Enter after each tag, e.g. body:knee, time:morning"


def split_tags(texts: Sequence[str]) -> list[str]:
    """Tags as typed, one or several per text (separated by commas), each once."""
    parts = (part.strip() for text in texts for part in text.split(","))
    return list(dict.fromkeys(part for part in parts if part))


class MemoryForm:
    def __init__(self, content: str = "", memory_type: MemoryType | None = None, tags: Sequence[str] = ()) -> None:
        self.content = (
            ui.textarea("Content", value=content)
            .props(f"autogrow autofocus counter maxlength={MAX_CONTENT}")
            .classes("w-full")
            .mark("field-content")
        )
        self.type = (
            ui.select(
                {t.value: TYPE_SINGULAR[t] for t in TYPE_ORDER},
                label="Type",
                value=memory_type.value if memory_type else None,
            )
            .classes("w-full")
            .mark("field-type")
        )
        self.tags = (
            ui.input_chips("Tags", value=list(tags), new_value_mode="add-unique").classes("w-full").mark("field-tags")
        )
        self.tags.props["hint"] = TAGS_HINT
        self.typed_tag = ""  # typed into the tags field, not yet a chip
        self.tags.on("input-value", self._typing)
        self.tags.on("blur", self._take_typed_tag)
        self.tags.on_value_change(self._split_tags)
        for element in (self.content, self.type, self.tags):
            element.on_value_change(lambda e: self._clear(e.sender))

    def values(self) -> dict[str, object]:
        return {
            "content": self.content.value or "",
            "type": self.type.value,
            "tags": split_tags([*self.tags.value, self.typed_tag]),
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
        target: ui.textarea | ui.select | ui.input_chips = self.content
        if field == "type":
            target = self.type
        elif field == "tags":
            target = self.tags
        target.error = str(error)
        target.run_method("focus")

    def clear_errors(self) -> None:
        for element in (self.content, self.type, self.tags):
            element.error = None

    def _typing(self, event: events.GenericEventArguments) -> None:
        self.typed_tag = str(event.args or "")
        if self.typed_tag:
            self._clear(self.tags)

    def _take_typed_tag(self) -> None:
        """Leaving the field (e.g. for Save) keeps what was typed, as chips."""
        if self.typed_tag.strip():
            self.tags.value = split_tags([*self.tags.value, self.typed_tag])
        self.typed_tag = ""

    def _split_tags(self) -> None:
        """A chip typed or pasted as 'a, b' becomes two chips."""
        if any("," in tag for tag in self.tags.value):
            self.tags.value = split_tags(self.tags.value)

    @staticmethod
    def _clear(element: ui.textarea | ui.select | ui.input_chips) -> None:
        if element.error:
            element.error = None
