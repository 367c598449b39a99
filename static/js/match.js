// The match page: one snapshot, then a long-poll on /events; at the end, a round-by-round replay.
// The parts live in ./match/: page (shared state), fetching, board, replay, live; this file wires the buttons.

import { tick } from "./match/board.js";
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
