// A person's seat: the play token the server gave them, kept in localStorage per match, so a reload or a second
// tab of the same browser resumes the seat. Every read sends it as `X-Play-Token` (the server then answers with
// the seat's own view), and `act`/`concede` post with it, turning the server's error envelope
// (`{error, message, detail}`) into a sentence a person can read. Game-agnostic: a game's refusals are named by
// its own strings (`err_<code>` in `games/<game>.json`), the shell's in static/i18n.json.
//
// Any page can keep a seat (`keepSeat`, e.g. the lobby's quick start before it opens the match); the match page
// opens one with `openSeat(matchId, T)`. A link may carry the token in its fragment (`#play=pk_live_…`): it is
// stored and removed from the address bar at once, so it never lands in history or a shared URL.

const PREFIX = "wodi.seat.";
const TOKEN = /^pk_live_[A-Za-z0-9_-]{20,}$/;

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: the seat lasts as long as the page
  }
}

const memory = new Map();

export function readSeat(matchId) {
  if (memory.has(matchId)) return memory.get(matchId);
  try {
    const record = JSON.parse(storage()?.getItem(PREFIX + matchId) || "null");
    return record && TOKEN.test(record.play_token || "") ? record : null;
  } catch {
    return null;
  }
}

// `record` is `{play_token, seat?, name?, settings?}`: what the server answered when the seat was taken, plus
// whatever the page wants back later (the quick start keeps the form's settings for 再来一局).
export function keepSeat(matchId, record) {
  if (!record || !TOKEN.test(record.play_token || "")) return;
  const kept = { ...record, kept_at: Date.now() };
  memory.set(matchId, kept);
  try {
    storage()?.setItem(PREFIX + matchId, JSON.stringify(kept));
  } catch {
    // quota or privacy mode: the in-memory copy still serves this page
  }
}

export function forgetSeat(matchId) {
  memory.delete(matchId);
  try {
    storage()?.removeItem(PREFIX + matchId);
  } catch {
    // nothing kept
  }
}

// `#play=<token>` (optionally `&seat=<n>`) → kept when this browser holds no seat of the match yet, and the fragment
// cleared. A token already kept is never replaced by a link's: a crafted link would otherwise drop the person's seat
// (its bogus token refused, then forgotten) or slip them another seat's token.
function absorbFragment(matchId) {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("play");
  if (!token) return;
  if (!readSeat(matchId)) {
    const seat = params.has("seat") ? Number(params.get("seat")) : undefined;
    keepSeat(matchId, { play_token: token, seat });
  }
  history.replaceState(history.state, "", `${location.pathname}${location.search}`);
}

function idempotencyKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// What a refusal says to a person: the game's or the shell's sentence for its code, else the server's message.
export function friendly(T, code, message) {
  const own = code && T[`err_${code}`];
  if (own) return own;
  return (T.err_generic || "{message}").replace("{message}", message || code || "");
}

export class SeatError extends Error {
  constructor(status, code, message, detail, text) {
    super(text);
    Object.assign(this, { status, code, serverMessage: message, detail: detail || {} });
  }
}

export function openSeat(matchId, T) {
  absorbFragment(matchId);
  const api = `/api/matches/${encodeURIComponent(matchId)}`;

  const seat = {
    get record() {
      return readSeat(matchId);
    },
    get held() {
      return Boolean(readSeat(matchId));
    },
    // The headers of every request this page makes for the match.
    headers() {
      const record = readSeat(matchId);
      return record ? { "X-Play-Token": record.play_token } : {};
    },
    remember(fields) {
      const record = readSeat(matchId);
      if (record) keepSeat(matchId, { ...record, ...fields });
    },
    forget() {
      forgetSeat(matchId);
    },
    async post(path, body) {
      let response;
      try {
        response = await fetch(`${api}${path}`, {
          method: "POST", credentials: "same-origin", cache: "no-store",
          headers: { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": idempotencyKey(),
            ...seat.headers() },
          body: JSON.stringify(body),
        });
      } catch {
        throw new SeatError(0, "network", "", {}, T.err_network || "network error");
      }
      const data = await response.json().catch(() => ({}));
      if (response.ok) return data;
      const code = data.error || `http_${response.status}`;
      if (code === "invalid_play_token") forgetSeat(matchId);
      throw new SeatError(response.status, code, data.message, data.detail, friendly(T, code, data.message));
    },
    // `POST /action` with the seat's token: the server's answer, or a SeatError whose message is for people.
    act(body) {
      return seat.post("/action", body);
    },
    concede() {
      return seat.post("/concede", {});
    },
  };
  return seat;
}
