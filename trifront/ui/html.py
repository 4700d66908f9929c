"""A tiny element tree: what render.py builds and dom.py mounts with pyscript.web.

Keeping the tree plain Python lets the whole page be built and inspected on CPython
(tests/ui/); only dom.py touches the browser.

>>> el = h("button", "Pass", id="btn-pass", disabled=True, title="Not your turn")
>>> el.find("#btn-pass").attrs["disabled"]
True
>>> el.text()
'Pass'
"""

from __future__ import annotations

from collections.abc import Iterator

Child = "El | str | int | None"


class El:
    """One element: ``tag``, ``attrs`` (HTML attribute names), ``children`` (El or text)."""

    __slots__ = ("tag", "attrs", "children")

    def __init__(self, tag: str, attrs: dict, children: list):
        self.tag = tag
        self.attrs = attrs
        self.children = children

    def __repr__(self) -> str:
        ident = f"#{self.attrs['id']}" if "id" in self.attrs else ""
        cls = "." + ".".join(self.classes) if self.classes else ""
        return f"<{self.tag}{ident}{cls} ({len(self.children)} children)>"

    @property
    def classes(self) -> list[str]:
        return str(self.attrs.get("class", "")).split()

    def add_class(self, name: str) -> None:
        """Add one class to the element's ``class`` attribute."""
        self.attrs["class"] = " ".join([*self.classes, name])

    def iter(self) -> Iterator[El]:
        """This element and every element below it, document order."""
        yield self
        for c in self.children:
            if isinstance(c, El):
                yield from c.iter()

    def text(self) -> str:
        """All text below this element, joined by single spaces where elements meet."""
        parts = []
        for c in self.children:
            parts.append(c.text() if isinstance(c, El) else str(c))
        return " ".join(p for p in parts if p).strip()

    def matches(self, selector: str) -> bool:
        """A minimal selector: "#id", ".class", "tag", "[attr]", "[attr=value]"."""
        if selector.startswith("#"):
            return self.attrs.get("id") == selector[1:]
        if selector.startswith("."):
            return selector[1:] in self.classes
        if selector.startswith("[") and selector.endswith("]"):
            inner = selector[1:-1]
            if "=" in inner:
                k, v = inner.split("=", 1)
                return k in self.attrs and str(self.attrs[k]) == v.strip("\"'")
            return inner in self.attrs
        return self.tag == selector

    def find_all(self, selector: str) -> list[El]:
        return [e for e in self.iter() if e.matches(selector)]

    def find(self, selector: str) -> El | None:
        for e in self.iter():
            if e.matches(selector):
                return e
        return None


_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "source", "track",
         "wbr"}


def to_html(node: El | str) -> str:
    """The tree as HTML text (text and attribute values escaped): for previews and tests."""
    from html import escape
    if not isinstance(node, El):
        return escape(str(node), quote=False)
    attrs = "".join(f" {k}" if v is True else f' {k}="{escape(str(v))}"'
                    for k, v in node.attrs.items())
    if node.tag in _VOID:
        return f"<{node.tag}{attrs}>"
    return f"<{node.tag}{attrs}>" + "".join(to_html(c) for c in node.children) + \
        f"</{node.tag}>"


def h(tag: str, *children, cls: str | list | tuple | None = None, data: dict | None = None,
      **attrs) -> El:
    """Build an element. ``cls``: class names (falsy entries dropped); ``data``: data-*
    attributes; other keyword names map ``_`` to ``-`` (``aria_label`` -> ``aria-label``).
    Boolean attributes: True sets, False/None omits. Children: El, text, nested lists; None
    is skipped.
    """
    out: dict = {}
    if cls:
        names = cls.split() if isinstance(cls, str) else [c for c in cls if c]
        if names:
            out["class"] = " ".join(names)
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        out[k.rstrip("_").replace("_", "-")] = v
    for k, v in (data or {}).items():
        if v is None:
            continue
        out["data-" + k.replace("_", "-")] = v
    return El(tag, out, _flatten(children))


def _flatten(children) -> list:
    out = []
    for c in children:
        if c is None or c is False:
            continue
        if isinstance(c, (list, tuple)):
            out.extend(_flatten(c))
        elif isinstance(c, El):
            out.append(c)
        else:
            out.append(str(c))
    return out
