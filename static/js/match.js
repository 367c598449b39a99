// The match page: one snapshot, then a long-poll on /events; at the end, a round-by-round replay.
// The parts live in ./match/: page (shared state, and the game's page module), fetching, model, kit, board,
// replay, live; this file wires the buttons. The shell knows no game: everything a game shows is its page module's.
//
// ---- Page modules -------------------------------------------------------------------------------------------
//
// A game `<game>` is drawn by `/static/js/games/<game>.js`; the server names it in the boot data
// (`page_module`: the game's own file if there is one, else `generic`), and if it fails to load the shell
// falls back to `generic.js`. Beside it, found by name and all optional:
//   `<game>.json`  its strings, {"zh": {key: text}, "en": {…}}, merged into `T` (and the server's templates);
//                  a key may not redefine one of static/i18n.json. It names its phases (`phase_<step>`), roles
//                  (`role_<role>`), camps (`camp_<camp>`), end reasons (`reason_<reason>`), its `next_<action>`
//                  values and `game_title`.
//   `<game>.css`   its colours (`.role-<role>`, `.camp-<camp>` …), linked on every page.
//   templates/games/<game>/{room,history,profile}.html   server-side parts of the lobby and profiles.
//
// The module's default export is `function (kit) → page`, called once. `kit` (./match/kit.js) holds `T`, the
// DOM helpers `h`, `fill`, `format`, `clear`, the model helpers `M` (`seats`, `knockOut`, `stageOf`,
// `isTerminal`) and shared pieces: `avatar`, `who`, `names`, `seatLabel`, `roleChip`, `statusChip`,
// `turn(label, deadline, total)`, stream items `item`, `system`, `bubble`, `tag`, `common` (the protocol's
// own events: player_joined, player_conceded, match_finished, match_aborted), `raw`, and `ballotView`.
// `page` has:
//   steps: [step] or (config) → [step]  the phase bar, "waiting" first, "finished" last (labels `phase_<step>`).
//   stepOf?(stage, model) → step      which step a stage lights (default: the stage itself; aborted → finished);
//                                     `model` tells a stage that follows more than one step (last words after
//                                     the night or after the vote) where it is.
//   configLine(config) → string       the line under the title.
//   roundLabel?(model) → string       the round chip once round ≥ 1 (default "round n").
//   header?(ui, model)                anything else in the header (`ui.pk`, hidden by the shell first).
//   init(model, snap)                 add the game's fields to a fresh model (see ./match/model.js).
//   player?(p, row)                   a seat appears: `row` is the snapshot's player row (fields the viewer sees).
//   apply(model, ev)                  fold one event in; the shell has already folded the shared fields:
//                                     players, status, phase, stage (phase before "_round_"), round, deadline,
//                                     result (match_finished/aborted), knock-out on player_conceded.
//   currentSeat?(model) → seat|null   whose turn it is (the live countdown uses the snapshot's deadline only
//                                     when it agrees with `current_speaker_seat`).
//   turnTotal?(model) → seconds       the length of the current turn, for the countdown bar.
//   card(p, model, ctx) → {data, tags, extra}   a player card's data-* attributes (data-seat, data-alive and
//                                     data-outcome are the shell's), its chips, and what goes below them;
//                                     ctx = {q, deadline, total, view}.
//   votes(ui, model, view)            fill `ui.votes` and show or hide `ui.votesCard`; view is "all", "play" or
//                                     the round being replayed.
//   result(model, result) → nodes     what follows the winner, the reason and the summary.
//   you(me, snap) → nodes             the chips of the viewer's own seat (`snap.you`) between seat and next action.
//   streamItem(ev, model, round) → <li>|null   one event in the stream (null: not shown), drawn from the model
//                                     as it stood right after that event; `kit.item` gives the <li> its data-*.
//   play?(me, snap, model, ctx) → {key, draw() → nodes}   the controls of the seat this browser holds (see
//                                     ./match/play.js); `ctx.me` in `card` is then that seat's `you` (null for
//                                     everyone else), so a card can carry the seat's buttons. `kit.seat`
//                                     (./match/seat.js) holds the play token and posts actions with it.
// `ui` is the page's elements (./match/page.js): a module writes only `ui.votes`, `ui.votesCard` and `ui.pk`.
// Every function gets plain data and returns nodes: text agents wrote only ever becomes text nodes.
// ./games/ holds a complete module beside generic.js, the smallest one.

import { tick } from "./match/board.js";
import "./match/guess.js";
import { start } from "./match/live.js";
import { T, ui } from "./match/page.js";
import { showAll, step, togglePlay } from "./match/replay.js";

ui.prev.addEventListener("click", () => step(-1));
ui.next.addEventListener("click", () => step(1));
ui.all.addEventListener("click", showAll);
ui.play.addEventListener("click", togglePlay);
ui.skip.addEventListener("click", showAll);
ui.share.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(`${location.origin}${location.pathname}`);
    ui.share.textContent = T.copied;
  } catch {
    ui.share.textContent = `${location.origin}${location.pathname}`;
  }
});
setInterval(tick, 250);
start();
