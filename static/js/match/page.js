// What every part of the match page shares: the boot data, the page's elements and its state.

const boot = JSON.parse(document.getElementById("wodi-boot").textContent);

export const T = boot.t;
export const API = `/api/matches/${encodeURIComponent(boot.match_id)}`;
export const Q = boot.lang === "en" ? "?lang=en" : "";
export const WAIT_S = 25; // the long-poll's wait
export const baseTitle = document.title;

const $ = (id) => document.getElementById(id);
export const ui = {
  head: $("match-head"), phase: $("phase"), round: $("round"), pk: $("pk"), alive: $("alive"), conn: $("conn"),
  connText: $("conn-text"), viewer: $("viewer"), result: $("result"), you: $("you"), players: $("players"),
  votes: $("votes"), votesCard: $("votes-card"), stream: $("stream"), streamEmpty: $("stream-empty"),
  replay: $("replay"), prev: $("replay-prev"), next: $("replay-next"), all: $("replay-all"), play: $("replay-play"),
  skip: $("replay-skip"), label: $("replay-label"), rounds: $("replay-rounds"), share: $("share"),
  grid: $("match-grid"), unlock: $("unlock"),
};

export const state = {
  snap: null, // the latest snapshot: viewer layer, `you`, the live speaker's deadline
  events: [], // every event this viewer may see, in seq order
  roundOf: new Map(), // seq → round
  model: null,
  since: 0,
  view: "all", // "all", a round number, or "play"
  player: null, // the "play from the start" cursor
};

export function setConn(kind, text) {
  ui.conn.dataset.state = kind;
  ui.connText.textContent = text;
}
