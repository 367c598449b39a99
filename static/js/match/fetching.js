// Fetching: JSON with a time limit, and the back-off between failed attempts.

import { format } from "../dom.js";
import { seat, setConn, T, WAIT_S } from "./page.js";

export async function getJSON(url, timeoutMs = (WAIT_S + 15) * 1000) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json", ...seat.headers() },
      signal: abort.signal,
    });
    if (response.status === 401 && seat.held) {
      seat.forget(); // a token the match no longer knows: watch as everyone else does
      return getJSON(url, timeoutMs);
    }
    if (!response.ok) {
      const error = new Error(`HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function backOff(attempt) {
  const delay = Math.min(1000 * 2 ** attempt, 30000) * (0.8 + Math.random() * 0.4);
  for (let left = Math.ceil(delay / 1000); left > 0; left -= 1) {
    setConn("retry", format(T.reconnecting, { s: left }));
    await sleep(Math.min(1000, delay));
  }
}
