"""The TriFront relay (signaling server for online play); not part of the page's package."""

from .relay import Limits, Relay

__all__ = ["Limits", "Relay"]
