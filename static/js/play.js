// The quick-start form (/play): its fields are the game's choices, read from `GET /api/play/{game}/options`
// (a JSON schema, the defaults, the word categories). An enum becomes a row of buttons, a boolean a switch, a small
// integer range a row of numbers, a free string with categories a list of them. Labels are the game's strings
// (`choice_<name>`, `choice_<name>_<value>`, `choice_<name>_hint`) in the visitor's language — never the schema's
// own English text (tests/web/test_form_strings.py checks every game's strings are there). A game whose quick start
// invites friends (`invites` in the options) opens a room that waits for them: the intro says so.

import { clear, h } from "./dom.js";
import { lastSettings, options, quickStart } from "./quickstart.js";

const boot = JSON.parse(document.getElementById("wodi-boot").textContent);
const T = boot.t;
const form = document.getElementById("play-form");
const holder = document.getElementById("play-choices");
const nameInput = document.getElementById("play-name");
const submit = document.getElementById("play-form-submit");
const message = document.getElementById("play-form-message");

const label = (name) => T[`choice_${name}`] || name;
const valueLabel = (name, value) => T[`choice_${name}_${value}`] || String(value);
const hint = (name) => T[`choice_${name}_hint`] || "";

function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  const alts = schema.anyOf || schema.oneOf;
  if (Array.isArray(alts) && alts.every((a) => "const" in a)) return alts.map((a) => a.const);
  if (schema.type === "integer" && Number.isInteger(schema.minimum) && Number.isInteger(schema.maximum)
      && schema.maximum - schema.minimum <= 10) {
    return Array.from({ length: schema.maximum - schema.minimum + 1 }, (_, i) => schema.minimum + i);
  }
  return null;
}

function fieldset(name, schema, ...body) {
  const text = hint(name);
  return h("fieldset", { data: { choice: name } }, h("legend", { text: label(name) }), body,
    text ? h("p", { class: "choice-hint", text }) : null);
}

function radios(name, schema, values, chosen) {
  return fieldset(name, schema, h("div", { class: "choice-row", role: "radiogroup" }, values.map((value) => h("label", {},
    h("input", { type: "radio", name, value: JSON.stringify(value), checked: value === chosen,
      "data-testid": `play-choice-${name}-${value}` }),
    h("span", { text: valueLabel(name, value) })))));
}

function toggle(name, schema, chosen) {
  return fieldset(name, schema, h("label", { class: "switch" },
    h("input", { type: "checkbox", name, checked: Boolean(chosen), "data-testid": `play-choice-${name}` }),
    h("span", { text: label(name) })));
}

// A category is a tag or `{tag, label: text | {zh, en}, count}`; a null tag is "any" (the whole library).
const inLang = (text) => (text && typeof text === "object" ? text[boot.lang] || text.zh || "" : text || "");

function categoryList(name, schema, categories, chosen) {
  const any = categories.find((c) => typeof c === "object" && c.tag === null);
  const options = categories.filter((c) => c !== any).map((c) => {
    const tag = typeof c === "string" ? c : c.tag;
    const text = typeof c === "string" ? c : `${inLang(c.label) || tag}${c.count ? ` · ${c.count}` : ""}`;
    return h("option", { value: tag, text, selected: tag === chosen });
  });
  const select = h("select", { name, class: "text-input", "data-testid": `play-choice-${name}` },
    h("option", { value: "", text: any ? inLang(any.label) || T.play_choice_any : T.play_choice_any }), options);
  return fieldset(name, schema, select);
}

function field(name, schema, categories, chosen) {
  const values = enumOf(schema);
  if (values) return radios(name, schema, values, chosen);
  const type = schema.type || (schema.anyOf || []).map((a) => a.type).find((t) => t && t !== "null");
  if (type === "boolean") return toggle(name, schema, chosen);
  if (categories.length) return categoryList(name, schema, categories, chosen);
  return fieldset(name, schema, h("input", { type: "text", name, class: "text-input", value: chosen ?? "",
    "data-testid": `play-choice-${name}` }));
}

function choicesOf() {
  const choices = {};
  for (const set of holder.querySelectorAll("fieldset[data-choice]")) {
    const name = set.dataset.choice;
    const radio = set.querySelector("input[type=radio]:checked");
    const box = set.querySelector("input[type=checkbox]");
    const other = set.querySelector("select, input[type=text]");
    if (radio) choices[name] = JSON.parse(radio.value);
    else if (box) choices[name] = box.checked;
    else if (other && other.value) choices[name] = other.value;
  }
  return choices;
}

async function start() {
  let opts;
  try {
    opts = await options(boot.game);
  } catch (error) {
    // The server answered that this game has no quick start (422), or something else went wrong on the way.
    const text = error.status === 422 ? T.play_no_quick_start : T.err_network;
    Object.assign(message, { hidden: false, textContent: text });
    return;
  }
  const schema = opts.schema || opts.choices_schema || {};
  const last = lastSettings();
  const kept = last && last.game === boot.game ? last : null;
  const chosen = { ...(opts.defaults || {}), ...(kept ? kept.choices : {}) };
  const categories = opts.categories || [];
  if (opts.invites) document.getElementById("play-form-intro").textContent = T.play_form_intro_invites;
  clear(holder);
  for (const [name, prop] of Object.entries(schema.properties || {})) {
    holder.append(field(name, prop, categories, chosen[name]));
  }
  nameInput.value = (kept && kept.name) || localStorage.getItem("wodi.guest_name") || "";
  submit.disabled = false;
  document.body.dataset.ready = "1";
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = nameInput.value.trim();
  if (!name) {
    Object.assign(message, { hidden: false, textContent: T.play_name_needed });
    return;
  }
  submit.disabled = true;
  submit.textContent = T.play_form_starting;
  try {
    localStorage.setItem("wodi.guest_name", name);
    await quickStart({ game: boot.game, name, choices: choicesOf() }, T, boot.lang);
  } catch (error) {
    Object.assign(message, { hidden: false, textContent: error.message });
    submit.disabled = false;
    submit.textContent = T.play_form_submit;
  }
});

start();
