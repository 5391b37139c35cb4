// @ts-check
// Words in the reader's language: one catalogue per language (en.js, de.js…), a key per text,
// `{name}` for arguments, and plural forms chosen by the browser's `Intl.PluralRules`.
//
// Owns: which language the page speaks (the one saved, else the browser's first known one),
// `<html lang dir>`, and the wording of a key. English is the fallback for a key a catalogue
// lacks; a key no catalogue has is shown as itself and remembered in `missing` for the tests.

import de from './de.js';
import en from './en.js';
import es from './es.js';
import fr from './fr.js';
import pl from './pl.js';

/** @typedef {string | Partial<Record<Intl.LDMLPluralRule, string>>} Message */

/** The catalogues, by language code, each with its own name for the switch. */
export const CATALOGUES = /** @type {Record<string, Record<string, Message>>} */ ({ en, de, fr, es, pl });

/** Languages written right to left: the page turns round for them. */
const RTL = new Set(['ar', 'fa', 'he', 'ur']);

/** Where the chosen language is kept. */
const STORAGE_KEY = 'parlor.lang';

/** Keys asked for that no catalogue has (a test reads it: it must stay empty). */
export const missing = new Set();

let current = 'en';
let plurals = new Intl.PluralRules('en');
let numbers = new Intl.NumberFormat('en', { useGrouping: false });

/**
 * The language to speak: the saved one if known, else the first of the browser's languages we
 * have (by its main part: "de-AT" speaks "de"), else English.
 * @param {string | null} saved @param {readonly string[]} preferred
 */
export function chooseLanguage(saved, preferred) {
  for (const code of [saved, ...preferred]) {
    const main = (code || '').toLowerCase().split('-')[0];
    if (main && CATALOGUES[main]) return main;
  }
  return 'en';
}

/** The language spoken now. */
export function language() {
  return current;
}

/** Speaks `code` from now on and marks the page with it. @param {string} code */
export function useLanguage(code) {
  current = CATALOGUES[code] ? code : 'en';
  plurals = new Intl.PluralRules(current);
  numbers = new Intl.NumberFormat(current, { useGrouping: false });
  document.documentElement.lang = current;
  document.documentElement.dir = RTL.has(current) ? 'rtl' : 'ltr';
  for (const el of document.querySelectorAll('[data-i18n]')) {
    el.textContent = t(/** @type {string} */ (el.getAttribute('data-i18n')));
  }
}

/** Starts the page in the saved or the browser's language. */
export function startLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    // Storage refused (a private window): the browser's language it is.
  }
  useLanguage(chooseLanguage(saved, navigator.languages || [navigator.language]));
}

/** Remembers `code` for later visits and reloads the page in it. @param {string} code */
export function switchLanguage(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not remembered, but this page still changes.
  }
  location.reload();
}

/** A number as the language writes it. @param {number} n */
export function formatNumber(n) {
  return numbers.format(n);
}

/** The message of `key` in the current language (English, or the key itself, when missing). @param {string} key */
function message(key) {
  const found = CATALOGUES[current][key] ?? CATALOGUES.en[key];
  if (found === undefined) missing.add(key);
  return found ?? key;
}

/**
 * The pieces of `key`'s text with its arguments put in: strings, and arguments that are DOM
 * nodes kept as nodes (for a name in bold inside a sentence). A plural message chooses its form
 * by `args.count`; numbers are written the language's way.
 * @param {string} key @param {Record<string, unknown>} [args]
 * @returns {(string | Node)[]}
 */
export function tParts(key, args = {}) {
  let text = message(key);
  if (typeof text !== 'string') {
    const count = Number(args.count ?? 0);
    text = text[plurals.select(count)] ?? text.other ?? '';
  }
  const out = [];
  for (const [i, piece] of text.split(/\{(\w+)\}/).entries()) {
    if (i % 2 === 0) {
      if (piece) out.push(piece);
      continue;
    }
    const value = args[piece];
    if (typeof Node !== 'undefined' && value instanceof Node) out.push(/** @type {Node} */ (value));
    else if (typeof value === 'number') out.push(formatNumber(value));
    else out.push(value === undefined || value === null ? `{${piece}}` : String(value));
  }
  return out;
}

/** The text of `key` with its arguments. @param {string} key @param {Record<string, unknown>} [args] */
export function t(key, args) {
  return tParts(key, args).map((p) => (typeof p === 'string' ? p : p.textContent)).join('');
}

/** Whether the current catalogue (or English) has `key`. @param {string} key */
export function hasKey(key) {
  return key in CATALOGUES[current] || key in CATALOGUES.en;
}

/** Names joined as the language lists them: "Ann, Bert and Cleo". @param {string[]} items */
export function listText(items) {
  return new Intl.ListFormat(current, { style: 'long', type: 'conjunction' }).format(items);
}

/** The language switch: a labelled select that saves the choice and redraws the page in it. */
export function languageSwitch() {
  const select = document.createElement('select');
  select.id = 'language';
  select.className = 'language-select';
  select.dataset.focus = 'language';
  select.setAttribute('aria-label', t('lang.switch'));
  for (const code of Object.keys(CATALOGUES)) {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = String(CATALOGUES[code]['lang.name']);
    option.selected = code === current;
    select.append(option);
  }
  select.addEventListener('change', () => switchLanguage(select.value));
  return select;
}
