"""The fields a memory is written with: Content, Type, Tags. Errors appear at the field.

With `suggest=True` (the Add dialog) the form reads the content as it is typed with the extraction
rules (domain.extraction.suggest, in a worker thread, after a pause): until the athlete picks a type
themselves, the suggested type is preselected; suggested tags are offered as buttons that add them.
The athlete can change both; a type they picked is never overwritten."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypeVar

from nicegui import events, run, ui
from pydantic import BaseModel

from domain.content import MAX_CONTENT
from domain.enums import MemoryType
from domain.errors import InvalidInput
from domain.extraction import suggest
from domain.schemas import parse
from domain.vocabulary import all_tags, tag_for_words
from ui.components.labels import TYPE_ORDER, TYPE_SINGULAR
from ui.components.live import Debounced
from ui.components.words import tag_words

SchemaT = TypeVar("SchemaT", bound=BaseModel)
Suggestion = tuple[MemoryType | None, tuple[str, ...]]
MAX_SUGGESTED_TAGS = 6
TAGS_HINT = "Optional. Type a word and press Enter, e.g. knee, mornings, long runs, work"
# Chips show a tag as words (ui.components.words), not its code; the value stays the code.
# Only the vocabulary's own words are written into the template; what the athlete typed reaches it
# as data (props.opt), which Vue renders as text: never a template of theirs to compile.
_VOCABULARY_WORDS = json.dumps({tag: tag_words(tag) for tag in all_tags()})
assert not any(mark in _VOCABULARY_WORDS for mark in ("{{", "}}", "<", ">", "`")), "a word would break the template"
_AFTER_KIND = "props.opt.slice(props.opt.indexOf(':') + 1)"  # 'topic:hotel gyms' → 'hotel gyms'
_CHIP_TEMPLATE = (
    '<q-chip dense removable :tabindex="-1" class="mr-tag-chip" @remove="props.removeAtIndex(props.index)">'
    f"{{{{ ({_VOCABULARY_WORDS})[props.opt] || {_AFTER_KIND}.charAt(0).toUpperCase() + {_AFTER_KIND}.slice(1) }}}}"
    "</q-chip>"
)


def split_tags(texts: Sequence[str]) -> list[str]:
    """Tags as typed, one or several per text (separated by commas), each once, as the tags the
    athlete means ("knee" → body:knee; domain.vocabulary.tag_for_words)."""
    parts = (tag_for_words(part) for text in texts for part in text.split(","))
    return list(dict.fromkeys(part for part in parts if part))


async def suggestion_for(text: str) -> Suggestion:
    """The rules' type and tags for `text`, read in a worker thread (the patterns run in linear time,
    but on a 2,000-character text that is still more than the event loop should spend)."""
    if not text.strip():
        return None, ()
    answer = await run.io_bound(suggest, text)
    return answer if answer is not None else (None, ())


class MemoryForm:
    def __init__(
        self,
        content: str = "",
        memory_type: MemoryType | None = None,
        tags: Sequence[str] = (),
        *,
        suggest: bool = False,
    ) -> None:
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
        self.tags.add_slot("selected-item", _CHIP_TEMPLATE)
        self.typed_tag = ""  # typed into the tags field, not yet a chip
        self.tags.on("input-value", self._typing)
        self.tags.on("blur", self._take_typed_tag)
        self.tags.on_value_change(self._split_tags)
        for element in (self.content, self.type, self.tags):
            element.on_value_change(lambda e: self._clear(e.sender))
        self.type_picked = memory_type is not None  # by the athlete: a suggestion never overrides it
        self.suggested_type: MemoryType | None = None
        self._suggesting = False
        self.type.on_value_change(self._type_changed)
        self.suggested_tags = ui.row().classes("w-full items-center gap-1").mark("suggested-tags")
        self.suggested_tags.set_visibility(False)
        if suggest:
            self.live = Debounced(lambda: suggestion_for(self.content.value or ""), self.show_suggestion)
            self.content.on_value_change(self.live.changed)

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

    async def settle_type(self) -> None:
        """Before a save: with no type picked, take the rules' suggestion for the text as it stands."""
        if self.type.value is None and not self.type_picked:
            self.show_suggestion(await suggestion_for(self.content.value or ""))

    def show_suggestion(self, suggestion: Suggestion) -> None:
        memory_type, tags = suggestion
        self.suggested_type = memory_type
        if not self.type_picked:
            self._suggesting = True
            try:
                self.type.value = memory_type.value if memory_type is not None else None
            finally:
                self._suggesting = False
            if memory_type is not None:
                self.type.props["hint"] = "Suggested from your text; change it if it is wrong"
            else:
                self.type.props.pop("hint", None)
            self.type.update()
        self._offer_tags(tags)

    def _offer_tags(self, tags: Sequence[str]) -> None:
        offered = [tag for tag in tags if tag not in self.tags.value][:MAX_SUGGESTED_TAGS]
        self.offered_tags = offered
        self.suggested_tags.clear()
        self.suggested_tags.set_visibility(bool(offered))
        if not offered:
            return
        with self.suggested_tags:
            ui.label("Suggested tags:").classes("text-sm mr-muted")
            for tag in offered:
                words = tag_words(tag)
                button = ui.button(words, icon="add", color="brand", on_click=lambda t=tag: self._add_tag(t))
                button.props("flat dense no-caps").mark("suggested-tag")
                button.props["aria-label"] = f"Add tag {words}"

    def _add_tag(self, tag: str) -> None:
        self.tags.value = split_tags([*self.tags.value, tag])
        self._offer_tags([t for t in self.offered_tags if t != tag])

    def _type_changed(self) -> None:
        if not self._suggesting:
            self.type_picked = self.type.value is not None
            self.type.props.pop("hint", None)
            self.type.update()

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
        """A chip typed or pasted as 'a, b' becomes two chips; 'knee' becomes the tag it means."""
        meant = split_tags(self.tags.value)
        if meant != list(self.tags.value):
            self.tags.value = meant  # comes back here once more, with nothing left to change

    @staticmethod
    def _clear(element: ui.textarea | ui.select | ui.input_chips) -> None:
        if element.error:
            element.error = None
