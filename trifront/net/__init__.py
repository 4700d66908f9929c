"""Online play: a match between two pages, each holding only its own player's game (sealed
play, RULES.md R7; docs/ONLINE.md).

match.py          OnlineMatch: the link and the session, who hosts, resume (sans-IO)
sealed_match.py   SealedMatch: one page's games in a room, Draft picks, clock, rematch
sealed_session.py a sealed game over a transport: numbered messages, resends, the reveal
sealed.py         SealedPage: one page's sealed game, its messages and the end audit (pure)
session.py        what every session shares: receiving, rematch offers, quick messages
protocol.py       the messages' shared checks and size limits (pure)
fairness.py       the Draft picks' commitment and the verdict, Report (pure)
link.py           the browser transport: WebSocket relay + WebRTC data channel (Pyodide only)

All but the links run on CPython (tests/net/). The relay is trifront_relay/ (not in the page).
"""
