// The quick start (开一局): `POST /api/play` seats the person and the official bots fill the rest at once. Shared
// by the form page (./play.js) and the match page's "again" buttons (./match/play.js): the settings of the last
// quick start are kept in localStorage, so 再来一局 replays them and 调难度 opens the form with them filled in.

import { friendly, keepSeat } from "./match/seat.js";

const LAST = "wodi.play.last";

export function lastSettings() {
  try {
    return JSON.parse(localStorage.getItem(LAST) || "null");
  } catch {
    return null;
  }
}

function saveSettings(settings) {
  try {
    localStorage.setItem(LAST, JSON.stringify(settings));
  } catch {
    // not kept: the form starts from the defaults next time
  }
}

export async function options(game) {
  const response = await fetch(`/api/play/${encodeURIComponent(game)}/options`, {
    credentials: "same-origin", headers: { Accept: "application/json" },
  });
  if (!response.ok) throw Object.assign(new Error(`HTTP ${response.status}`), { status: response.status });
  return response.json();
}

function idempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID()
    : [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// `settings` = {game, name, choices}: opens the table, keeps the seat and goes to the match page.
export async function quickStart(settings, T, lang) {
  const response = await fetch("/api/play", {
    method: "POST", credentials: "same-origin", cache: "no-store",
    headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": idempotencyKey() },
    body: JSON.stringify(settings),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(friendly(T, data.error, data.message));
  keepSeat(data.match_id, { play_token: data.play_token, seat: data.seat, name: settings.name, quick: settings });
  saveSettings(settings);
  const url = new URL(data.match_url || `/match/${encodeURIComponent(data.match_id)}`, location.origin);
  if (lang === "en") url.searchParams.set("lang", "en");
  location.assign(`${url.pathname}${url.search}`);
  return data;
}

// The same choices with another word category (换词): the choice the form draws as the category list — a free
// string when the options list categories — set to a category other than the current one.
export function withAnotherCategory(opts, choices) {
  const categories = (opts.categories || []).map((c) => (typeof c === "string" ? c : c.tag)).filter((c) => c);
  const props = (opts.schema || opts.choices_schema || {}).properties || {};
  const name = Object.keys(props).find((key) => {
    const p = props[key];
    const type = p.type || (p.anyOf || []).map((a) => a.type).find((t) => t && t !== "null");
    return !p.enum && !p.anyOf?.every?.((a) => "const" in a) && type === "string";
  });
  if (!name || !categories.length) return choices;
  const others = categories.filter((c) => c !== choices[name]);
  return { ...choices, [name]: others[Math.floor(Math.random() * others.length)] ?? choices[name] };
}
