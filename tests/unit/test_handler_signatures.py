"""The kept answer to "does this handler take arguments?" is NiceGUI's own answer, for every kind of
handler a page passes: a button's click handler that takes the event gets it, one that takes
nothing is called without it, whether asked first or for the hundredth time."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from nicegui import helpers

from ui import handler_signatures
from ui.handler_signatures import expects_arguments

original = handler_signatures._ask_afresh


class Panel:
    def takes_event(self, event: object) -> None: ...

    def takes_nothing(self) -> None: ...

    def event_optional(self, event: object = None) -> None: ...

    def only_rest(self, *args: object, **kwargs: object) -> None: ...

    def __call__(self, event: object) -> None: ...


def decorated(function: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return wrapper


def handlers() -> list[Callable[..., Any]]:
    panel = Panel()
    made: list[Callable[..., Any]] = [
        panel.takes_event,
        panel.takes_nothing,
        panel.event_optional,
        panel.only_rest,
        panel,  # a callable object
        lambda: None,
        lambda e: None,
        lambda e=None: None,
        lambda *, e: None,
        lambda *, e=None: None,
        functools.partial(lambda a, e: None, 1),
        functools.partial(lambda a: None, 1),
        decorated(lambda e: None),
        decorated(lambda: None),
        print,  # a builtin
    ]
    return made + [lambda x=n: x for n in range(3)]  # one code object, many closures


def test_every_kind_of_handler_gets_nicegui_own_answer_first_and_again() -> None:
    for handler in handlers():
        expected = original(handler)
        assert expects_arguments(handler) == expected, handler
        assert expects_arguments(handler) == expected, handler  # from what was kept


def test_one_code_object_with_different_defaults_is_told_apart() -> None:
    def make(with_default: bool) -> Callable[..., None]:
        if with_default:
            return lambda e=None: None
        return lambda e: None

    assert expects_arguments(make(False)) is True
    assert expects_arguments(make(True)) is False


def test_a_wrapper_shares_no_answer_with_another_wrapper_of_the_same_code() -> None:
    takes = decorated(lambda e: None)
    takes_nothing = decorated(lambda: None)
    assert expects_arguments(takes) is True
    assert expects_arguments(takes_nothing) is False


def test_install_puts_it_where_nicegui_asks() -> None:
    before = helpers.expects_arguments
    try:
        handler_signatures.install()
        assert helpers.expects_arguments is expects_arguments
    finally:
        helpers.expects_arguments = before
