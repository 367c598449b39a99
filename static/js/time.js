// Server-rendered <time datetime> elements → "3 minutes ago" in the page's language.

const lang = document.documentElement.lang || "zh-CN";
const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });
const STEPS = [["second", 60], ["minute", 60], ["hour", 24], ["day", 30], ["month", 12], ["year", Infinity]];

function ago(date) {
  let value = (date.getTime() - Date.now()) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return date.toLocaleString(lang);
}

for (const el of document.querySelectorAll("time[datetime]")) {
  const date = new Date(el.getAttribute("datetime"));
  if (Number.isNaN(date.getTime()) || date.getFullYear() < 2000) continue;
  el.title = date.toLocaleString(lang);
  el.textContent = ago(date);
}
