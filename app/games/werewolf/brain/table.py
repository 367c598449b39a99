"""What one seat knows, read from its own snapshot only (`you`, `players`, `public_log`, `private_log`).

Nothing here looks at another seat's card: a wolf knows the pack (`you.fellow_wolves`), the seer her checks
(`you.seer_checks`), the witch the victims she was shown (`witch_informed` in her private log); everyone reads
the public speeches, votes and deaths. Seer claims are read from the speech text (`claims`), so a claim made
by any agent — a bot or not — counts if it is worded the usual way ("我是预言家", "验了3号，查杀").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SENTENCE_END = re.compile(r"[。！？!?…～~]+")
_CLAIM = re.compile(r"我(?:就|才|真)?是(?:真)?预言家|预言家是我|本人(?:是)?预言家|我这张牌是预言家|跳预言家")
_CHECK = re.compile(r"(?:验|查)[^，。！？；]{0,4}?(\d+)号[^。！？；]{0,6}?(金水|查杀|好人|狼人|是狼)")
_CHECK_SHORT = re.compile(r"(\d+)号(?:是|为)?(金水|查杀)")


def sentences(text: str) -> list[str]:
    """The sentences of a text (split at 。！？… and ～), stripped, without empty ones."""
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


@dataclass
class Claim:
    """A public seer claim: who, when (log order), and the checks announced so far (seat → is a wolf)."""

    seat: int
    order: int
    day: int
    checks: dict[int, bool] = field(default_factory=dict)


@dataclass
class Vote:
    """One public vote."""

    day: int
    voter: int
    target: int
    pk: bool


@dataclass
class Table:
    """The seat's whole knowledge, as plain data."""

    me: int
    role: str
    alive: bool
    next_action: str
    day: int
    is_night: bool
    living: list[int]
    seats: list[int]
    composition: dict[str, int]
    allowed: dict[str, list[dict[str, Any]]]
    pk_candidates: list[int]
    fellow_wolves: list[int] = field(default_factory=list)
    pack_choices: dict[int, int | None] = field(default_factory=dict)
    my_checks: dict[int, bool] = field(default_factory=dict)
    check_nights: dict[int, int] = field(default_factory=dict)  # the seer: seat → night she checked it
    potions: dict[str, bool] = field(default_factory=dict)
    night_victim: int | None = None
    victims_seen: list[int] = field(default_factory=list)  # the witch: every night's victim she was told
    last_guarded: int | None = None
    claims: dict[int, Claim] = field(default_factory=dict)
    votes: list[Vote] = field(default_factory=list)
    night_dead: dict[int, int] = field(default_factory=dict)  # seat → night it died
    voted_out: dict[int, int] = field(default_factory=dict)  # seat → day it went out
    shot: dict[int, int] = field(default_factory=dict)  # seat → day the hunter took it
    revealed: dict[int, str] = field(default_factory=dict)  # seat → "werewolf"/"village" shown at death
    used: set[str] = field(default_factory=set)  # every sentence this seat has said (speech, words, comments)
    my_texts: int = 0  # how many texts this seat has posted
    whispered_tonight: bool = False
    whisper_targets: list[int] = field(default_factory=list)  # seats named in the pack's whispers tonight
    speeches_today: list[tuple[int, str]] = field(default_factory=list)

    @property
    def is_wolf(self) -> bool:
        return self.role == "werewolf"

    def others(self) -> list[int]:
        """The living seats but mine."""
        return [s for s in self.living if s != self.me]

    def targets(self, kind: str, action: str | None = None) -> list[int]:
        """The offered targets of an allowed action (`night_action` needs `action`)."""
        for row in self.allowed.get(kind, []):
            if action is None or row.get("action") == action:
                return [int(t) for t in row.get("targets") or []]
        return []

    def offers(self, kind: str, action: str | None = None) -> bool:
        return any(action is None or row.get("action") == action for row in self.allowed.get(kind, []))


def read(snapshot: dict[str, Any]) -> Table:
    """The `Table` of the seat whose snapshot this is."""
    you = snapshot["you"]
    allowed: dict[str, list[dict[str, Any]]] = {}
    for row in you.get("allowed_actions") or []:
        allowed.setdefault(str(row["type"]), []).append(row)
    players = snapshot.get("players") or []
    table = Table(
        me=int(you["seat"]), role=str(you.get("role") or "villager"), alive=bool(you.get("alive")),
        next_action=str(you.get("next_action")), day=int(snapshot.get("round_index") or 0),
        is_night=bool(snapshot.get("is_night")),
        living=[int(s) for s in snapshot.get("alive_seats") or [p["seat"] for p in players if p.get("alive")]],
        seats=[int(p["seat"]) for p in players], composition=dict(snapshot.get("composition") or {}),
        allowed=allowed, pk_candidates=[int(s) for s in snapshot.get("pk_candidates") or []],
    )
    table.fellow_wolves = [int(s) for s in you.get("fellow_wolves") or []]
    table.pack_choices = {int(k): (None if v is None else int(v)) for k, v in (you.get("pack_choices") or {}).items()}
    for check in you.get("seer_checks") or []:
        table.my_checks[int(check["seat"])] = check["camp"] == "werewolf"
        table.check_nights.setdefault(int(check["seat"]), int(check["round"]))
    table.potions = {str(k): bool(v) for k, v in (you.get("potions") or {}).items()}
    victim = you.get("night_victim")
    table.night_victim = None if victim is None else int(victim)
    guarded = you.get("last_guarded")
    table.last_guarded = None if guarded is None else int(guarded)
    for p in players:
        shown = p.get("revealed_role") or p.get("revealed_camp")
        if not p.get("alive") and shown:
            table.revealed[int(p["seat"])] = "werewolf" if shown == "werewolf" else "village"
    _read_public(table, snapshot.get("public_log") or [])
    _read_private(table, you.get("private_log") or [])
    return table


def _read_public(table: Table, log: list[dict[str, Any]]) -> None:
    for order, event in enumerate(log):
        kind = event.get("type")
        if kind in ("speech_posted", "last_words_posted"):
            seat, text = int(event["seat"]), str(event.get("text") or "")
            _read_claim(table, seat, text, order, int(event.get("round") or table.day))
            if seat == table.me:
                table.used.update(sentences(text))
                table.my_texts += 1
            if kind == "speech_posted" and int(event.get("round") or -1) == table.day:
                table.speeches_today.append((seat, text))
        elif kind == "vote_cast":
            table.votes.append(Vote(int(event["round"]), int(event["seat"]), int(event["target_seat"]),
                                    bool(event.get("pk"))))
            if int(event["seat"]) == table.me and event.get("comment"):
                table.used.update(sentences(str(event["comment"])))
        elif kind == "night_result":
            for seat in event.get("dead_seats") or []:
                table.night_dead[int(seat)] = int(event["round"])
        elif kind == "round_resolved" and event.get("eliminated_seat") is not None:
            table.voted_out[int(event["eliminated_seat"])] = int(event["round"])
        elif kind == "hunter_shot" and event.get("target_seat") is not None:
            table.shot[int(event["target_seat"])] = int(event["round"])
        elif kind == "player_eliminated":
            shown = event.get("revealed_role") or event.get("revealed_camp")
            if shown:
                table.revealed[int(event["seat"])] = "werewolf" if shown == "werewolf" else "village"


def _read_claim(table: Table, seat: int, text: str, order: int, day: int) -> None:
    if _CLAIM.search(text) and seat not in table.claims:
        table.claims[seat] = Claim(seat, order, day)
    claim = table.claims.get(seat)
    if claim is None:
        return
    for pattern in (_CHECK, _CHECK_SHORT):
        for match in pattern.finditer(text):
            target = int(match.group(1))
            if target != seat and target in table.seats:
                claim.checks[target] = match.group(2) in ("查杀", "狼人", "是狼")


def _read_private(table: Table, log: list[dict[str, Any]]) -> None:
    for event in log:
        kind = event.get("type")
        if kind == "witch_informed" and event.get("victim_seat") is not None:
            table.victims_seen.append(int(event["victim_seat"]))
        elif kind == "whisper_received" and int(event.get("round") or -1) == table.day and table.is_night:
            if int(event["from_seat"]) == table.me:
                table.whispered_tonight = True
            table.whisper_targets += [int(m) for m in re.findall(r"(\d+)号", str(event.get("text") or ""))]
        if kind == "whisper_received" and int(event["from_seat"]) == table.me:
            table.used.update(sentences(str(event.get("text") or "")))
