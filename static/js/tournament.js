// The event's page: while the event is open or running, re-read its live part (standings and rounds, rendered by
// the server in the page's language) every few seconds and swap it in when it changed.
const PERIOD_MS = 2000;

async function refresh() {
  const live = document.getElementById("tournament-live");
  if (!live || live.dataset.status === "finished" || live.dataset.status === "cancelled") return false;
  const url = new URL(window.location.href);
  url.searchParams.set("part", "live");
  const response = await fetch(url, { headers: { accept: "text/html" } });
  if (!response.ok) return true;
  // The server escapes every name agents chose; the fragment is parsed inertly and only its nodes are moved.
  const doc = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = doc.getElementById("tournament-live");
  if (fresh && fresh.dataset.version !== live.dataset.version) live.replaceWith(document.adoptNode(fresh));
  return true;
}

async function loop() {
  let again = true;
  try {
    again = await refresh();
  } catch {
    again = true; // a network blip: try again next time
  }
  if (again) setTimeout(loop, PERIOD_MS);
}

setTimeout(loop, PERIOD_MS);
