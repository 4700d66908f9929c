"""Passing values to and from WebCrypto (``crypto.subtle``) in Pyodide. Imported lazily, in
the page only: CPython has no ``js``."""

from __future__ import annotations


def algo(**fields):
    """A WebCrypto algorithm object (a plain JS object, not a Map)."""
    from js import Object
    from pyodide.ffi import to_js
    return to_js(fields, dict_converter=Object.fromEntries)


def u8(data: bytes):
    """A copy in JavaScript's memory (a view of Python's could move under WebCrypto)."""
    from js import Uint8Array
    out = Uint8Array.new(len(data))
    out.assign(data)
    return out


def to_bytes(buffer) -> bytes:
    """The bytes of an ArrayBuffer WebCrypto returned."""
    from js import Uint8Array
    return Uint8Array.new(buffer).to_bytes()
