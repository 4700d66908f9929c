"""The browser side of the page: html.El trees become DOM through pyscript.web, and clicks come
back to the controller through one delegated listener on ``#app``.

Only this module and main.py import pyscript. One listener for the whole app (not one per
button) means re-rendering never leaks event proxies.
"""

from __future__ import annotations

from js import performance
from pyscript import document, web
from pyscript.ffi import create_proxy, is_none

from trifront.ui.html import El

_KEYWORD_TAGS = {"input": "input_", "del": "del_", "map": "map_", "object": "object_"}


def build(node: El | str):
    """An El (or text) -> a pyscript.web Element (or a DOM text node)."""
    if not isinstance(node, El):
        return document.createTextNode(str(node))
    element = getattr(web, _KEYWORD_TAGS.get(node.tag, node.tag))()
    dom = element._dom_element
    for name, value in node.attrs.items():
        dom.setAttribute(name, "" if value is True else str(value))
    for child in node.children:
        if isinstance(child, El):
            element.append(build(child))
        else:
            element.append(str(child))  # text, never parsed as HTML
    return element


class Mount:
    """Draws trees into one container element (``#app``), replacing what was there."""

    def __init__(self, container_id: str = "app"):
        self.container = web.page[container_id]

    def __call__(self, tree: El) -> None:
        start = performance.now()
        fresh = build(tree)
        dom = self.container._dom_element
        dom.replaceChildren(fresh._dom_element)
        dom.setAttribute("data-render-ms", str(round(performance.now() - start, 1)))


def dataset(el) -> dict:
    """Every data-* attribute of a DOM element: {"card-id": "12", ...}."""
    out = {}
    for name in el.getAttributeNames():
        if name.startswith("data-"):
            out[name[5:]] = el.getAttribute(name)
    return out


def listen(container_id: str, dispatch, on_error, on_input=None) -> None:
    """Route clicks (and Enter/Space on focusable cards, Escape) to ``dispatch(act, data)``,
    and typing in a field with ``data-input="key"`` to ``on_input(key, value)`` (no redraw);
    Enter in such a field clicks ``#btn-start``."""
    container = web.page[container_id]._dom_element

    def fire(target) -> None:
        if is_none(target) or not hasattr(target, "closest"):
            return
        el = target.closest("[data-act]")  # JS null arrives as JsNull, not None
        if is_none(el) or el.hasAttribute("disabled") or \
                el.getAttribute("aria-disabled") == "true":
            return
        data = dataset(el)
        act = data.pop("act")
        if act == "backdrop" and not el.isSameNode(target):
            return  # a click inside the dialog, not on the dimmed backdrop
        dispatch(act, data)

    def on_click(event) -> None:
        try:
            fire(event.target)
        except Exception as exc:  # noqa: BLE001 - the controller guards; this is a last net
            on_error(exc)

    def on_key(event) -> None:
        try:
            if event.key == "Escape":
                dispatch("escape", {})
            elif event.key == "Enter" and event.target.hasAttribute("data-input"):
                event.preventDefault()
                dispatch("start", {})
            elif event.key in ("Enter", " ") and event.target.getAttribute("role") == "button":
                event.preventDefault()
                fire(event.target)
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    def on_type(event) -> None:
        try:
            target = event.target
            key = target.getAttribute("data-input") if hasattr(target, "getAttribute") else None
            if on_input is not None and not is_none(key) and key:
                on_input(key, str(target.value))
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    container.addEventListener("input", create_proxy(on_type))
    container.addEventListener("click", create_proxy(on_click))
    document.addEventListener("keydown", create_proxy(on_key))
