"""The host (opt-in, `config.host` `"plain"` | `"chaos"`): one public `host_commentary` after each round's
speeches (not after a PK's), before the debate or the vote opens.

- The ranking is `reading.public_suspicion` over public information only: every speech so far, the public
  votes and the roles of seats already out. `plain` shows it as it is: it knows no role and no word.
- `chaos` (seed 000's CHAOS_PROMPT) knows the deal and, with probability `CHAOS_STEER` (a seeded draw), pushes
  a living civilian — one of the two most suspicious-looking ones — to the top of the ranking with a
  plausible-sounding line: suspicion steered toward someone innocent. It never names a role or a word,
  and its event always says `may_mislead: true`, steered or not. The steered seat is recorded in a
  `god_only` `host_steered` event (for replays and the recap).
- The text is built from fixed templates, seat numbers and the 0–100 index only: no speech is quoted.

Event: `host_commentary` {round, mode, ranking: [seats, most suspicious first], suspicion: [{seat, score}]
(same order, 0–100), summary, may_mislead}.
"""

from __future__ import annotations

from app.games.undercover import table
from app.games.undercover.reading import percent, public_suspicion, ranking
from app.games.undercover.state import Step

CHAOS_STEER = 0.7  # chance that the chaos host steers in a round
STEER_MARGIN = 8  # the steered seat's index is this much above the real top (at most 100)
CALM_BELOW = 40  # a top index under this reads as "nobody stands out"

_PLAIN_TOP = ("{top}号的描述和大家最对不上，值得多问一句。", "目前{top}号最游离，但场上还有变数。",
              "{top}号的说法最难和其他人对上号。", "从描述看，{top}号离大家最远。")
_PLAIN_CALM = ("大家的描述都很接近，暂时看不出破绽。", "这一轮说得都挺稳，嫌疑拉不开。")
_CHAOS_LINES = ("不会吧不会吧，{top}号这套说法也太完美了，细思极恐。",
                "我越看{top}号越不对劲：说得全对，反而最像在演。",
                "{top}号的描述乍一看没毛病，可偏偏没毛病才是最大的毛病。",
                "别看别人了，{top}号才是这一轮的关键人物……当然，我也可能分析错了，哈哈。")
_CHAOS_HONEST = "节奏大师的话，信不信由你。"
CHAOS_NOTE = "🔥混乱模式：主持人的分析可能是陷阱，也可能是真相。"


def comment(step: Step) -> None:
    """Emit this round's `host_commentary` (and, when chaos steered, the god-only `host_steered`)."""
    state = step.state
    record = table.sync(step)
    assert record is not None
    alive = state.living_seats()
    raw = public_suspicion(alive, table.public_speeches(record), table.public_votes(record),
                           table.revealed(state))
    order = ranking(raw)
    scores = {seat: percent(raw[seat]) for seat in order}
    chaos = state.config.host == "chaos"
    steered = _steer(step, order) if chaos else None
    if steered is not None:
        scores[steered] = min(100, max(scores.values()) + STEER_MARGIN)
        order = [steered, *(s for s in order if s != steered)]
    this_round = [s for s in record.speeches if s.round == state.round_index and not s.pk]
    step.emit("host_commentary", "public", round=state.round_index, mode=state.config.host, ranking=order,
              suspicion=[{"seat": s, "score": scores[s]} for s in order],
              summary=_summary(step, order, scores, this_round_spoke=sum(1 for s in this_round if s.text),
                               this_round_silent=sum(1 for s in this_round if not s.text),
                               steered=steered is not None),
              may_mislead=chaos)
    if steered is not None:
        step.emit("host_steered", "god_only", round=state.round_index, target_seat=steered)


def _steer(step: Step, order: list[int]) -> int | None:
    """The civilian the chaos host pushes this round, or None (it does not steer every round)."""
    rng = step.rng("host_chaos")
    if rng.random() >= CHAOS_STEER:
        return None
    innocents = [seat for seat in order if step.state.players[seat].role == "civilian"]
    return rng.choice(innocents[:2]) if innocents else None


def _summary(step: Step, order: list[int], scores: dict[int, int], *, this_round_spoke: int,
             this_round_silent: int, steered: bool) -> str:
    rng = step.rng("host_line")
    state = step.state
    head = f"第{state.round_index}轮发言结束：{this_round_spoke}人发言"
    head += f"，{this_round_silent}人沉默。" if this_round_silent else "。"
    board = "嫌疑排行：" + " > ".join(f"{seat}号({scores[seat]})" for seat in order[:3]) + "。"
    top = order[0] if order else None
    if top is None:
        line = ""
    elif steered:
        line = rng.choice(_CHAOS_LINES).format(top=top)
    elif scores[top] < CALM_BELOW:
        line = rng.choice(_PLAIN_CALM)
    else:
        line = rng.choice(_PLAIN_TOP).format(top=top)
    parts = [head, board, line]
    if state.config.host == "chaos":
        parts += [] if steered else [_CHAOS_HONEST]
        parts.append(CHAOS_NOTE)
    return "".join(parts)
