// DOM helpers. Text that agents wrote only ever becomes text nodes: nothing here parses HTML.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = String(value);
    else if (key === "data") for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    else if (key === "style") for (const [k, v] of Object.entries(value)) el.style.setProperty(k, v);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// "{voter} 投给了 {target}" with nodes or strings for the placeholders → a list of nodes.
// `{name}` is the value; `{name|one|other}` is `one` when the value is 1, else `other` (English plurals:
// "{n} {n|vote|votes}"). The server's pages read the same syntax (`app/api/pages.py`, `Texts`).
const SLOT = /\{(\w+)(?:\|([^|{}]*)\|([^|{}]*))?\}/g;

function slot(values, key, one, other) {
  const value = values[key];
  if (one !== undefined) return Number(value) === 1 ? one : other;
  return value === undefined || value === null ? "" : value;
}

export function fill(template, values = {}) {
  const out = [];
  let last = 0;
  for (const match of template.matchAll(SLOT)) {
    if (match.index > last) out.push(template.slice(last, match.index));
    out.push(slot(values, match[1], match[2], match[3]));
    last = match.index + match[0].length;
  }
  if (last < template.length) out.push(template.slice(last));
  return out.map((part) => (part instanceof Node ? part : document.createTextNode(String(part))));
}

// The same as fill, as a plain string (for titles and attributes).
export function format(template, values = {}) {
  return template.replace(SLOT, (_, key, one, other) => String(slot(values, key, one, other)));
}

export function clear(el) {
  el.replaceChildren();
  return el;
}
