"""NiceGUI asks, for every props, classes and style collection of every element it builds, whether
the change handler takes arguments, and answers with `inspect.signature` each time: about 150 times
per Context page, a quarter of the cost of building its elements. The answer depends only on the
handler's code, so it is kept per code object for plain functions and methods (a bounded set: one
entry per place in the source); anything else (partials, decorated functions, callable objects) is
asked afresh, as before."""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType, FunctionType, MethodType
from typing import Any

from nicegui import helpers

_ask_afresh: Callable[[Callable[..., Any]], bool] = helpers.expects_arguments
_known: dict[tuple[CodeType, int, tuple[str, ...], bool], bool] = {}


def _key(handler: Callable[..., Any]) -> tuple[CodeType, int, tuple[str, ...], bool] | None:
    bound = isinstance(handler, MethodType)
    function: object = handler.__func__ if isinstance(handler, MethodType) else handler
    if type(function) is not FunctionType:
        return None
    if hasattr(function, "__wrapped__") or hasattr(function, "__signature__") or hasattr(handler, "__signature__"):
        return None  # the signature is another function's, or set by hand
    defaults = len(function.__defaults__ or ())
    keyword_defaults = tuple(sorted(function.__kwdefaults__ or ()))
    return function.__code__, defaults, keyword_defaults, bound


def expects_arguments(func: Callable[..., Any]) -> bool:
    """The same answer as NiceGUI's own `helpers.expects_arguments`, computed once per code object."""
    key = _key(func)
    if key is None:
        return _ask_afresh(func)
    known = _known.get(key)
    if known is None:
        known = _known[key] = _ask_afresh(func)
    return known


def install() -> None:
    """Every NiceGUI module calls it as `helpers.expects_arguments`, so replacing it there is enough."""
    if helpers.expects_arguments is not expects_arguments:
        helpers.expects_arguments = expects_arguments
