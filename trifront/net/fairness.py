"""What both pages of an online game share to judge it: the commitment to Draft picks (R2.3:
each page commits to its picks before the other's are opened) and the verdict (``Report``)
the audit of a game gives (sealed.py)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from ..reasons import fault_english


def _sha(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def picks_commit(picks: dict, salt: str) -> str:
    return _sha(b"trifront-picks/1:", bytes.fromhex(salt), canonical(picks).encode()).hex()


@dataclass
class Report:
    """A page's verdict of a game (sealed.audit): ``fair`` only if every check passed."""

    #: (name, passed, detail): the detail is data, {"code", "step", "args"} (sealed.fault),
    #: put in words by the page (a verdict an older version saved may hold a sentence)
    checks: list[tuple[str, bool, str | dict]] = field(default_factory=list)
    #: the game's told record (RECORD.md "told"), when the audit replayed it to its
    #: end with every check passed: the game as both pages may now replay and review it.
    #: Kept only while the report is fair: a failed check drops it
    record: dict | None = None
    #: a sealed game that failed a check: the told record of the steps before it, each
    #: checked (both keys revealed); what can still be exported of it
    partial: dict | None = None

    def add(self, name: str, ok: bool, detail: str | dict = "") -> bool:
        self.checks.append((name, bool(ok), detail))
        if not ok:
            self.record = None
        return bool(ok)

    @property
    def fair(self) -> bool:
        return bool(self.checks) and all(ok for _, ok, _ in self.checks)

    def summary(self) -> str:
        bad = [f"{name}: {_english(detail)}" if detail else name
               for name, ok, detail in self.checks if not ok]
        return ("Fair: " + ", ".join(n for n, _, _ in self.checks) + " all check out."
                if self.fair else "NOT fair — " + "; ".join(bad))

    def to_json(self) -> dict:
        data = {"fair": self.fair, "summary": self.summary(),
                "checks": [{"name": n, "ok": ok, "detail": d} for n, ok, d in self.checks]}
        if self.record is not None:
            data["record"] = self.record
        if self.partial is not None:
            data["partial"] = self.partial
        return data

    @classmethod
    def from_json(cls, data: dict) -> Report:
        """The inverse of ``to_json`` (a page's saved verdict). Raises on a malformed one."""
        checks = [(str(c["name"]), c["ok"] is True,
                   c["detail"] if isinstance(c["detail"], dict) else str(c["detail"]))
                  for c in data["checks"]]
        report = cls(checks, data.get("record") if isinstance(data.get("record"), dict) else None)
        if not report.fair:
            report.record = None
            partial = data.get("partial")
            report.partial = partial if isinstance(partial, dict) else None
        return report


def _english(detail: str | dict) -> str:
    """A check's detail in English (a sealed one is data: the catalogue's words)."""
    if isinstance(detail, dict):
        return fault_english(detail)
    return detail
