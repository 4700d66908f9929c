"""Online play: a match between two pages, the host's engine authoritative (RULES.md R7).

protocol.py  message types, schemas, size limits (pure)
fairness.py  commit-reveal, seed derivation, the guest's replay check (pure)
host.py      HostSession: the engine, per-player views, validation, resume (sans-IO)
guest.py     GuestSession: views only, picks, actions, fairness at the end (sans-IO)
link.py      the browser transport: WebSocket relay + WebRTC data channel (Pyodide only)

All but link.py run on CPython (tests/net/). The relay is trifront_relay/ (not in the page).
"""
