// What every part of the match page shares: the boot data, the game's page module, the elements and the state.

import { makeKit } from "./kit.js";
import { openSeat } from "./seat.js";

const boot = JSON.parse(document.getElementById("wodi-boot").textContent);

export const T = boot.t; // the page's strings and the game's (the server merges its `games/<game>.json`)
export const API = `/api/matches/${encodeURIComponent(boot.match_id)}`;
export const Q = boot.lang === "en" ? "?lang=en" : "";
export const WAIT_S = 25; // the long-poll's wait
export const SEATS_FOR = boot.seats_for || "all"; // who may sit: all, agents (no guest join form) or people
export const BOT_SEATS = boot.bot_seats ?? null; // the most open seats the official bots take here (null: any)
export const baseTitle = document.title;

// The page module the server named for this match's game (`generic` when the game has none); should it fail to
// load, the generic one still shows the match.
export const kit = makeKit(T);

// The seat this browser holds in the match, if any (./seat.js): reads and actions carry its play token.
export const seat = openSeat(boot.match_id, T);
kit.seat = seat; // page modules act through it

async function loadGame(name) {
  try {
    return (await import(`/static/js/games/${encodeURIComponent(name)}.js`)).default(kit);
  } catch (error) {
    console.error(`page module ${name}:`, error);
    return (await import("/static/js/games/generic.js")).default(kit);
  }
}

export const game = await loadGame(boot.page_module);

const $ = (id) => document.getElementById(id);
export const ui = {
  head: $("match-head"), phase: $("phase"), round: $("round"), pk: $("pk"), alive: $("alive"), conn: $("conn"),
  connText: $("conn-text"), viewer: $("viewer"), result: $("result"), you: $("you"), players: $("players"),
  votes: $("votes"), votesCard: $("votes-card"), stream: $("stream"), streamEmpty: $("stream-empty"),
  replay: $("replay"), prev: $("replay-prev"), next: $("replay-next"), all: $("replay-all"), play: $("replay-play"),
  skip: $("replay-skip"), label: $("replay-label"), rounds: $("replay-rounds"), share: $("share"),
  grid: $("match-grid"), unlock: $("unlock"), title: $("match-title"), config: $("config-line"),
};

export const state = {
  snap: null, // the latest snapshot: viewer layer, `you`, the live speaker's deadline
  events: [], // every event this viewer may see, in seq order
  roundOf: new Map(), // seq → round
  model: null,
  since: 0,
  phaseSeq: 0, // the seq of the last streamed event that moved the phase (live.js)
  view: "all", // "all", a round number, or "play"
  player: null, // the "play from the start" cursor
};

// Whether the board (the event stream) has moved to a phase this snapshot has not seen yet: the seat's controls
// in it belong to the phase that ended.
export function behind(snap) {
  return state.phaseSeq > (snap?.events_total ?? Infinity);
}

export function setConn(kind, text) {
  ui.conn.dataset.state = kind;
  ui.connText.textContent = text;
}
