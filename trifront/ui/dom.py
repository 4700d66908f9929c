"""The browser side of the page: html.El trees become DOM through pyscript.web, and clicks come
back to the controller through one delegated listener on ``#app``.

Only this module and main.py import pyscript. One listener for the whole app (not one per
button) means re-rendering never leaks event proxies.
"""

from __future__ import annotations

import asyncio

from js import Object, performance
from pyscript import document, web
from pyscript.ffi import create_proxy, is_none, to_js

from trifront.ui import motion
from trifront.ui.html import El
from trifront.ui.scrolling import covered_by_bar

#: tasks started and not yet done: the event loop holds only a weak reference to a task, so
#: one nobody holds may be collected before it finishes
_RUNNING: set = set()


def keep(task):
    """Hold ``task`` until it is done; returns it."""
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return task

_KEYWORD_TAGS = {"input": "input_", "del": "del_", "map": "map_", "object": "object_"}
SVG_NS = "http://www.w3.org/2000/svg"


def build(node: El | str):
    """An El (or text) -> a pyscript.web Element (or a DOM text node; an <svg> tree as DOM
    nodes in the SVG namespace, which the HTML constructors cannot make)."""
    if not isinstance(node, El):
        return document.createTextNode(str(node))
    if node.tag == "svg":
        return _build_svg(node)
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


def _build_svg(node: El | str):
    if not isinstance(node, El):
        return document.createTextNode(str(node))
    dom = document.createElementNS(SVG_NS, node.tag)
    for name, value in node.attrs.items():
        if name != "xmlns":
            dom.setAttribute(name, "" if value is True else str(value))
    for child in node.children:
        dom.appendChild(_build_svg(child))
    return dom


class NextFrame:
    """``frame(callback)``: the callback at the browser's next animation frame, or after
    FALLBACK_MS where frames do not come (a hidden tab), whichever is first; one waits at a
    time (App.render_soon asks once until it ran). One proxy for the page's life."""

    FALLBACK_MS = 250

    def __init__(self):
        from js import window
        self.window = window
        self.waiting = None
        self._proxy = create_proxy(self._run)

    def __call__(self, callback) -> None:
        self.waiting = callback
        self.window.requestAnimationFrame(self._proxy)
        self.window.setTimeout(self._proxy, self.FALLBACK_MS)

    def _run(self, *_) -> None:
        callback, self.waiting = self.waiting, None
        if callback is not None:
            callback()


_NO_SCROLL = None


def focus(el) -> None:
    """Focus without scrolling the page (a redraw must not make it jump)."""
    global _NO_SCROLL
    if _NO_SCROLL is None:
        _NO_SCROLL = to_js({"preventScroll": True}, dict_converter=Object.fromEntries)
    el.focus(_NO_SCROLL)


class Mount:
    """Draws trees into one container element (``#app``), replacing what was there.

    Keyboard play survives the redraw: the element that had the focus gets it back (same
    id); if it is gone, the new tree's ``[data-autofocus]`` element gets it (render.py marks
    the next sensible choice), and an open dialog always takes the focus into itself. The
    tree's ``lang`` goes onto <html> too (screen readers, fonts)."""

    def __init__(self, container_id: str = "app"):
        self.container = web.page[container_id]
        self.motion = Motion()

    def __call__(self, tree: El) -> None:
        start = performance.now()
        fresh = build(tree)
        dom = self.container._dom_element
        active = document.activeElement
        had_focus = (not is_none(active) and active is not None
                     and bool(dom.contains(active)))
        focused_id = active.id if had_focus else ""
        before = self.motion.before(dom)
        dom.replaceChildren(fresh._dom_element)
        self.motion.after(dom, before)
        lang = tree.attrs.get("lang")
        if lang and document.documentElement.lang != lang:
            document.documentElement.lang = lang
        try:
            self._refocus(dom, focused_id, had_focus)
        except Exception:  # noqa: BLE001 - focus is a nicety; never break a render
            pass
        dom.setAttribute("data-render-ms", str(round(performance.now() - start, 1)))

    @staticmethod
    def _refocus(dom, focused_id: str, had_focus: bool) -> None:
        dialog = dom.querySelector("[role=dialog]")
        if not is_none(dialog) and dialog is not None:
            active = document.activeElement
            if is_none(active) or active is None or not dialog.contains(active):
                target = dialog.querySelector("[data-autofocus]")
                if not is_none(target) and target is not None:
                    focus(target)
            return
        forced = dom.querySelector('[data-autofocus="force"]')
        if had_focus and not is_none(forced) and forced is not None:
            focus(forced)
            return
        if focused_id:
            same = document.getElementById(focused_id)
            if not is_none(same) and same is not None and not same.hasAttribute("disabled"):
                focus(same)
                return
        active = document.activeElement
        lost = is_none(active) or active is None or active == document.body
        if had_focus or lost:
            target = dom.querySelector("[data-autofocus]")
            if not is_none(target) and target is not None and (had_focus or _keyboard_user):
                focus(target)


_keyboard_user = False


def _attr(el, name: str):
    value = el.getAttribute(name)
    return None if is_none(value) or value is None else str(value)


class Motion:
    """Cards travel between two drawings (motion.py decides what moved; this measures the
    page and starts the animations). Nothing moves when the system asks for less motion,
    and a failure here never breaks a render."""

    def __init__(self):
        from js import window
        self.window = window
        self.query = window.matchMedia("(prefers-reduced-motion: reduce)")
        self.layer = None
        self.ghosts: list = []
        document.documentElement.classList.add("tf-motion")

    def enabled(self) -> bool:
        return not self.query.matches

    def _measure(self, dom) -> tuple[list, list]:
        """(raw elements for motion.measure, their DOM nodes), in document order."""
        sx, sy = self.window.scrollX, self.window.scrollY
        seat = dom.querySelector("[data-me]")
        me = None if is_none(seat) or seat is None else _attr(seat, "data-me")
        raw, nodes = [], []
        for el in dom.querySelectorAll(motion.SELECTOR):
            r = el.getBoundingClientRect()
            item = {"id": el.id, "cls": str(el.className), "me": me,
                    "rect": (r.left + sx, r.top + sy, r.width, r.height)}
            if el.hasAttribute("data-owner"):
                zone = _attr(el, "data-zone")
                item.update({"card-id": _attr(el, "data-card-id"),
                             "owner": _attr(el, "data-owner"), "zone": zone,
                             "hidden": el.hasAttribute("data-hidden-card"),
                             "face": _attr(el, "data-face")})
                if zone == "board":
                    lane = el.closest("[data-lane]")
                    if not is_none(lane) and lane is not None:
                        item["lane"] = _attr(lane, "data-lane")
            raw.append(item)
            nodes.append(el)
        return raw, nodes

    def before(self, dom):
        try:
            # a ghost outlives the next redraw (the CPU may answer at once); one whose
            # flight ended (or never began) goes
            for node, anim in self.ghosts:
                if anim.playState in ("finished", "idle"):
                    node.remove()
            self.ghosts = [(n, a) for n, a in self.ghosts
                           if a.playState not in ("finished", "idle")]
            if not self.enabled():
                return None
            return self._measure(dom)
        except Exception:  # noqa: BLE001 - motion is a nicety; never break a render
            return None

    def after(self, dom, before) -> None:
        if before is None:
            return
        try:
            old_raw, old_nodes = before
            new_raw, new_nodes = self._measure(dom)
            old, new = motion.measure(old_raw), motion.measure(new_raw)
            for mo in motion.plan(old, new):
                if mo.kind == "ghost":
                    item = old[mo.key]
                    node = self._ghost(old_nodes[item.ref], item.rect)
                    self.ghosts.append((node, self._animate(node, mo, True)))
                else:
                    self._animate(new_nodes[new[mo.key].ref], mo, False)
        except Exception as exc:  # noqa: BLE001 - said, not raised: the page works on
            from js import console
            console.warn(f"TriFront motion: {exc!r}")

    def _ghost(self, node, rect):
        """The card that left, drawn where it was, above the page and out of its way."""
        if self.layer is None:
            self.layer = document.createElement("div")
            self.layer.className = "tf-ghosts"
            self.layer.setAttribute("aria-hidden", "true")
            document.body.appendChild(self.layer)
        for name in list(node.getAttributeNames()):
            if name == "id" or name.startswith("data-") or name in ("role", "tabindex"):
                node.removeAttribute(name)
        node.style.cssText = (f"left:{rect.x}px;top:{rect.y}px;width:{rect.w}px;"
                              f"height:{rect.h}px")
        self.layer.appendChild(node)
        return node

    @staticmethod
    def _animate(node, mo: motion.Motion, ghost: bool):
        timing = {"duration": round(mo.duration * 1000), "delay": round(mo.delay * 1000),
                  "easing": "cubic-bezier(.2,.8,.25,1)", "fill": "both" if ghost else "backwards",
                  "composite": "add", "id": f"tf-motion-{mo.kind}"}
        anim = node.animate(to_js(mo.frames, dict_converter=Object.fromEntries),
                            to_js(timing, dict_converter=Object.fromEntries))
        if mo.fade is not None:
            node.animate(to_js([{"opacity": mo.fade[0]}, {"opacity": mo.fade[1]}],
                               dict_converter=Object.fromEntries),
                         to_js({**timing, "composite": "replace",
                                "id": f"tf-motion-{mo.kind}-fade"},
                               dict_converter=Object.fromEntries))
        if ghost:
            from pyodide.ffi import create_once_callable
            anim.onfinish = create_once_callable(lambda *_: node.remove())
        return anim


def copy_text(text: str) -> bool:
    """Copy ``text`` to the clipboard, from the click that asked (no permission needed):
    through a hidden field the page selects, which works on http:// too, where
    navigator.clipboard is missing. The focus goes back where it was."""
    was = document.activeElement
    field = document.createElement("textarea")
    field.value = text
    field.setAttribute("readonly", "")
    field.style.position = "fixed"
    field.style.opacity = "0"
    field.style.top = "0"
    document.body.appendChild(field)
    try:
        field.select()
        return bool(document.execCommand("copy"))
    except Exception:  # noqa: BLE001
        return False
    finally:
        field.remove()
        if not is_none(was) and was is not None and hasattr(was, "focus"):
            was.focus()


def share_link(url: str, title: str) -> bool:
    """Offer ``url`` to the system's share sheet (navigator.share). -> False where the
    browser has none for it (the page copies the link instead). The player closing the
    sheet without sharing is no error."""
    from js import navigator
    if not hasattr(navigator, "share") or is_none(getattr(navigator, "share", None)):
        return False
    data = to_js({"url": url, "title": title}, dict_converter=Object.fromEntries)
    if hasattr(navigator, "canShare") and not navigator.canShare(data):
        return False
    from pyodide.ffi import create_once_callable
    navigator.share(data).catch(create_once_callable(lambda *_: None))
    return True


def can_share() -> bool:
    """Whether the browser has a share sheet for links (then the invitation says "Share")."""
    from js import navigator
    return hasattr(navigator, "share") and not is_none(getattr(navigator, "share", None))


def scroll_to(where: str) -> None:
    """Bring part of the page into sight: "top" scrolls the window to its top (a new
    screen starts there); any other string is a CSS selector whose element is scrolled the
    least distance that shows it (``block: "nearest"``) and clear of the action bar when
    that bar sticks to the window's foot, and nothing moves if it is already in sight or
    missing."""
    from js import window
    if where == "top":
        window.scrollTo(0, 0)
        return
    el = document.querySelector(where)
    if is_none(el) or el is None:
        return
    el.scrollIntoView(to_js({"block": "nearest"}, dict_converter=Object.fromEntries))
    bar = document.querySelector(".tf-actionbar")
    if is_none(bar) or bar is None:
        return
    below = covered_by_bar(el.getBoundingClientRect(), bar.getBoundingClientRect(),
                           window.innerHeight)
    if below > 0:
        window.scrollBy(0, below)


def set_address(params: dict) -> None:
    """Set the page address's query parameters ({"room": "blue fox"}; "" drops one; the key
    "#" sets the fragment, "" drops it) without a reload or a history entry, so that a reload
    opens what the page shows (the same room; the menu after a replay link was closed)."""
    from js import URL, history, location
    url = URL.new(location.href)
    for key, value in params.items():
        if key == "#":
            url.hash = value
        elif value:
            url.searchParams.set(key, value)
        else:
            url.searchParams.delete(key)
    if url.href != location.href:
        history.replaceState(history.state, "", url.href)


class History:
    """The browser's history follows the page (App.history_depth): going deeper (the menu to
    a game, a game to its replay) pushes an entry per level, at the same address (a reload
    or a ?room= link still opens what it did); coming back up by the page's own buttons
    goes back over them, so Back never lands on a stale entry. Back (popstate) tells the
    app the depth of the entry the browser went to ("history-back"); Forward past the page
    is undone. Each entry's state is {"tf": depth}."""

    def __init__(self, dispatch):
        from js import history, window
        self.dispatch = dispatch
        self.depth = self._depth_of(history.state)   # a reload keeps the entry it was on
        self.ours: list[str] = []  # our own history.go()s to come back: the address to keep
        window.addEventListener("popstate", create_proxy(self.on_pop))

    @staticmethod
    def _depth_of(state) -> int:
        if is_none(state) or state is None:
            return 0
        depth = getattr(state, "tf", None)
        return depth if isinstance(depth, int) and 0 <= depth < 100 else 0

    def sync(self, depth: int) -> None:
        from js import history, location
        if depth > self.depth:
            for k in range(self.depth + 1, depth + 1):
                history.pushState(to_js({"tf": k}, dict_converter=Object.fromEntries), "",
                                  location.href)
        elif depth < self.depth:
            # the entry we go back to keeps the address as the page has it now (a replay
            # link's fragment or a room left is not brought back by the step)
            self.ours.append(str(location.href))
            history.go(depth - self.depth)
        self.depth = depth

    def on_pop(self, event) -> None:
        from js import history
        if self.ours:
            history.replaceState(event.state, "", self.ours.pop(0))
            return
        self.depth = self._depth_of(event.state)
        self.dispatch("history-back", {"depth": str(self.depth)})


def dataset(el) -> dict:
    """Every data-* attribute of a DOM element: {"card-id": "12", ...}."""
    out = {}
    for name in el.getAttributeNames():
        if name.startswith("data-"):
            out[name[5:]] = el.getAttribute(name)
    return out


#: keys that move the focus along the player's hand (a card focused there)
HAND_KEYS = ("ArrowLeft", "ArrowRight", "Home", "End")


def hand_step(target, key: str) -> bool:
    """Move the keyboard focus from a hand card to the previous or next one (Home, End: the
    first, the last). -> whether the focus was on a hand card (the key is then taken)."""
    if is_none(target) or not hasattr(target, "closest"):
        return False
    hand = target.closest("#hand-me")
    if is_none(hand) or hand is None or not target.hasAttribute("data-card-id"):
        return False
    cards = list(hand.querySelectorAll("[data-card-id][tabindex]"))
    if not cards:
        return False
    at = next((i for i, c in enumerate(cards) if c.isSameNode(target)), 0)
    to = {"ArrowLeft": max(0, at - 1), "ArrowRight": min(len(cards) - 1, at + 1),
          "Home": 0, "End": len(cards) - 1}[key]
    cards[to].focus()
    return True


#: keys that choose the previous or next option of a menu row (.tf-segs)
SEG_KEYS = ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown")


def seg_step(target, key: str) -> bool:
    """A menu row is one Tab stop (only its chosen option is in the Tab order, render's
    segs): the arrows move to the previous or next option and choose it, as in a radio
    group. -> whether the focus was on such an option."""
    if is_none(target) or not hasattr(target, "closest") or \
            not target.classList.contains("tf-seg"):
        return False
    group = target.closest(".tf-segs")
    if is_none(group) or group is None:
        return False
    segs = list(group.querySelectorAll(".tf-seg"))
    at = next((i for i, c in enumerate(segs) if c.isSameNode(target)), 0)
    step = -1 if key in ("ArrowLeft", "ArrowUp") else 1
    segs[(at + step) % len(segs)].focus()
    segs[(at + step) % len(segs)].click()
    return True


class CardDrag:
    """A hand card dragged onto a lane with a mouse or a pen: the card follows the pointer
    (a transform on the card itself), the lane under it is lit, and letting go over a lane
    dispatches "drop" (the card and that lane chosen at once; the face comes next, as after
    two clicks). Below DRAG_START px of movement it stays a click. A finger keeps tapping (a
    drag on a phone's hand would stop the page from scrolling)."""

    DRAG_START = 8

    def __init__(self, dispatch):
        self.dispatch = dispatch
        self.card = None
        self.start = (0.0, 0.0)
        self.dragging = False
        self.over = None
        self.dropped_at = -1e9   # the event time (ms) a drag was let go

    def down(self, event) -> None:
        self.cancel()
        self.dropped_at = -1e9      # a press of its own: the click that follows is the player's
        if event.pointerType == "touch" or event.button != 0:
            return
        card = event.target.closest("#hand-me [data-card-id][data-act]") \
            if hasattr(event.target, "closest") else None
        if is_none(card) or card is None:
            return
        self.card = card
        self.start = (event.clientX, event.clientY)

    def move(self, event) -> None:
        if self.card is None:
            return
        dx, dy = event.clientX - self.start[0], event.clientY - self.start[1]
        if not self.dragging:
            if abs(dx) + abs(dy) < self.DRAG_START:
                return
            self.dragging = True
            self.card.classList.add("tf-dragging")
        self.card.style.transform = f"translate({dx}px, {dy}px)"
        self._light(self._lane_at(event.clientX, event.clientY))

    def up(self, event) -> None:
        if self.card is None:
            return
        card, dragging = self.card, self.dragging
        lane = self._lane_at(event.clientX, event.clientY) if dragging else None
        self.cancel()
        if not dragging:
            return                          # a click: the click event does the rest
        self.dropped_at = event.timeStamp
        if lane is not None:
            self.dispatch("drop", {"card-id": card.getAttribute("data-card-id"),
                                   "lane": lane.getAttribute("data-lane")})

    def ends_drag(self, click) -> bool:
        """Whether ``click`` is the one the browser may send as a drag is let go (on the
        element both the card and the drop point sit in): it comes with the pointerup,
        in the same few milliseconds, before any other press; a click after that, or after
        a new press however soon, is the player's."""
        return 0 <= click.timeStamp - self.dropped_at < 100

    def cancel(self) -> None:
        if self.card is not None:
            self.card.style.transform = ""
            self.card.classList.remove("tf-dragging")
        self._light(None)
        self.card, self.dragging = None, False

    def _lane_at(self, x: float, y: float):
        hit = document.elementFromPoint(x, y)   # the card lets the pointer through (CSS)
        if is_none(hit) or hit is None:
            return None
        lane = hit.closest(".tf-lane[data-lane]")
        return None if is_none(lane) or lane is None else lane

    def _light(self, lane) -> None:
        if self.over is not None and (lane is None or not self.over.isSameNode(lane)):
            self.over.classList.remove("tf-drop-over")
        self.over = lane
        if lane is not None:
            lane.classList.add("tf-drop-over")


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
            if drag.ends_drag(event):       # the click that ends a drag is not a click
                return
            fire(event.target)
        except Exception as exc:  # noqa: BLE001 - the controller guards; this is a last net
            on_error(exc)

    def on_key(event) -> None:
        global _keyboard_user
        try:
            if event.key in ("Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "Escape"):
                _keyboard_user = True
            typing = event.target.tagName in ("INPUT", "TEXTAREA", "SELECT")
            if event.key == "Escape":
                dispatch("escape", {})
            elif event.key in HAND_KEYS and hand_step(event.target, event.key):
                event.preventDefault()      # the focus moved along the hand
            elif event.key in SEG_KEYS and seg_step(event.target, event.key):
                event.preventDefault()      # the next choice of a menu row, chosen
            elif event.key in ("ArrowLeft", "ArrowRight") and not typing:
                dispatch("arrow", {"dir": "left" if event.key == "ArrowLeft" else "right"})
            elif event.key == "Enter" and event.target.hasAttribute("data-input"):
                event.preventDefault()
                enter = event.target.getAttribute("data-enter")
                dispatch(enter if not is_none(enter) and enter else "start", {})
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

    async def read_file(file) -> None:
        try:
            text = await file.text()
            dispatch("replay-file", {"text": str(text)})
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    def on_change(event) -> None:
        """A file chosen in an <input type=file data-file>: read it, hand its text over."""
        try:
            target = event.target
            if not target.hasAttribute("data-file") or is_none(target.files) \
                    or target.files.length == 0:
                return
            keep(asyncio.ensure_future(read_file(target.files.item(0))))
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    drag = CardDrag(dispatch)

    def on_pointer(event) -> None:
        global _keyboard_user
        _keyboard_user = False
        try:
            drag.down(event)
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    def on_move(event) -> None:
        try:
            drag.move(event)
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    def on_up(event) -> None:
        try:
            drag.up(event)
        except Exception as exc:  # noqa: BLE001
            on_error(exc)

    container.addEventListener("change", create_proxy(on_change))
    container.addEventListener("pointerdown", create_proxy(on_pointer))
    document.addEventListener("pointermove", create_proxy(on_move))
    document.addEventListener("pointerup", create_proxy(on_up))
    document.addEventListener("pointercancel", create_proxy(lambda event: drag.cancel()))
    container.addEventListener("input", create_proxy(on_type))
    container.addEventListener("click", create_proxy(on_click))
    document.addEventListener("keydown", create_proxy(on_key))
