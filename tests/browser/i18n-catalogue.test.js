// The message catalogue holds every word of the web client: each language has exactly the
// English keys, its plural forms and the same {arguments}; every key the code names exists;
// and no visible text is written in the code instead (a heuristic over web/: text in
// index.html outside `data-i18n`, and string literals that read as words where the page
// shows them). Plain Node: no browser, no server.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { pathToFileURL } from 'node:url';

import { rootDir } from './lib/harness.js';

const webDir = path.join(rootDir, 'web');
const i18nDir = path.join(webDir, 'i18n');
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pl'];

/** The catalogue of `lang`. */
async function catalogue(lang) {
  return (await import(pathToFileURL(path.join(i18nDir, `${lang}.js`)).href)).default;
}

/** Every .js file under `dir`, the catalogues left out. */
function scripts(dir = webDir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return full === i18nDir ? [] : scripts(full);
    return name.endsWith('.js') ? [full] : [];
  });
}

/** The {names} a message uses, over all its plural forms. */
function argsOf(message) {
  const texts = typeof message === 'string' ? [message] : Object.values(message);
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
}

test('every language has exactly the English keys, its own plural forms and the same arguments', async () => {
  const en = await catalogue('en');
  assert.ok(Object.keys(en).length > 300, 'the English catalogue is loaded');
  for (const lang of LANGUAGES) {
    const messages = await catalogue(lang);
    const missing = Object.keys(en).filter((k) => !(k in messages));
    const extra = Object.keys(messages).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys the English lacks`);
    // The forms whole numbers up to a thousand take (French "many" starts at a million).
    const rules = new Intl.PluralRules(lang);
    const forms = new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)));
    for (const [key, message] of Object.entries(messages)) {
      assert.equal(typeof message === 'string', typeof en[key] === 'string', `${lang} ${key}: plural in one language only`);
      if (typeof message !== 'string') {
        for (const form of forms) assert.ok(form in message, `${lang} ${key} lacks the plural form "${form}"`);
      }
      assert.ok(argsOf(message).every((a) => argsOf(en[key]).includes(a)), `${lang} ${key} uses an argument the English does not`);
      assert.ok((typeof message === 'string' ? [message] : Object.values(message)).every((text) => text.trim() !== ''), `${lang} ${key} is empty`);
    }
  }
});

test('every key the code names exists in the English catalogue', async () => {
  const en = await catalogue('en');
  const named = [];
  for (const file of scripts()) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:t|tParts|tOr|hasKey)\(\s*'([a-z0-9_.]+)'/g)) named.push([path.relative(webDir, file), m[1]]);
  }
  for (const m of readFileSync(path.join(webDir, 'index.html'), 'utf8').matchAll(/data-i18n="([^"]+)"/g)) named.push(['index.html', m[1]]);
  assert.ok(named.length > 200, `the keys are found (${named.length})`);
  const unknown = named.filter(([, key]) => !(key in en)).map(([file, key]) => `${file}: ${key}`);
  assert.deepEqual(unknown, []);
});

/** Contexts where a string literal is not shown to people (a class, an id, a selector, a key…). */
const NOT_SHOWN = [
  /\b(class|className|id|type|name|rel|for|href|autocomplete|inputmode|lang|dir|role|key|code|kind|status|phase|variant|occupant|direction|value|download|viewBox|fill|stroke|points|d|transform)\s*:\s*$/,
  /\b(querySelector|querySelectorAll|closest|getElementById|addEventListener|removeEventListener|setAttribute|getAttribute|removeAttribute|toggleAttribute|hasAttribute|matches|startsWith|endsWith|includes|import|fetch|get|set|getItem|setItem|removeItem|createElement|createElementNS|setProperty|test|match|split|join|replace|t|tParts|tOr|hasKey|h|svg|Error|warn|log|matchMedia)\(\s*$/,
  /(===|!==|==|!=|case|from|import)\s*$/,
  /\[\s*$/,
  // Inside a class list, however it is built.
  /\bclass(Name)?\s*[:=][^,;]*$/,
  // A command to type, shown as code.
  /h\('code',\s*\{\},\s*$/,
];

/** Literals that read as words: two words, or a capitalised word. */
function readsAsWords(text) {
  const plain = text.replace(/\$\{[^}]*\}/g, ' ');
  return /\p{L}[.,:;!?’']?[ \u00a0]+\p{L}{2,}/u.test(plain) || /^\s*\p{Lu}\p{Ll}+/u.test(plain);
}

/** The source without comments (line comments at a line's start, and block comments). */
function withoutComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/^\s*\/\/.*$/gm, '');
}

/** Names, shown as they are in every language: the project's and its computer players'. */
const NAMES = new Set(['Parlor', 'Ada', 'Bert', 'Cleo', 'Dido', 'Emil', 'Flora', 'Gideon']);

/** Literals of `code` that read as words where the page shows them, as "name:line: text". */
function hardCoded(code, name) {
  const source = withoutComments(code);
  const found = [];
  for (const m of source.matchAll(/'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)) {
    const text = m[1] ?? m[2] ?? '';
    if (!readsAsWords(text) || NAMES.has(text.trim())) continue;
    const before = source.slice(Math.max(0, m.index - 60), m.index);
    if (NOT_SHOWN.some((re) => re.test(before))) continue;
    // A literal assigned to, or passed as, what people see (text, labels, titles, placeholders),
    // or a child of an element made with h().
    const line = source.slice(0, m.index).split('\n').length;
    found.push(`${name}:${line}: ${text.slice(0, 60)}`);
  }
  return found;
}

test('no visible words are written in the client’s code instead of the catalogue', () => {
  const found = scripts().flatMap((file) => hardCoded(readFileSync(file, 'utf8'), path.relative(webDir, file)));
  assert.deepEqual(found, []);
  // The one page of HTML: its words are keys (`data-i18n`), except what shows without JavaScript.
  const html = readFileSync(path.join(webDir, 'index.html'), 'utf8')
    .replace(/<(noscript|title|script|style)[^>]*>[\s\S]*?<\/\1>/g, '')
    .replace(/<([a-z]+)[^>]*data-i18n="[^"]*"[^>]*>[^<]*<\/\1>/g, '')
    .replace(/<[^>]+>/g, '\n');
  const words = html.split('\n').map((s) => s.trim()).filter((s) => /\p{L}{2,}/u.test(s) && !NAMES.has(s));
  assert.deepEqual(words, []);
});

test('the check finds words written in code', () => {
  // The heuristic itself: what it must catch and what it must leave.
  assert.ok(readsAsWords('Your turn: play a card'));
  assert.ok(readsAsWords('Remove'));
  assert.ok(!readsAsWords('primary'));
  assert.ok(!readsAsWords('hand.last_trick'));
  assert.ok(NOT_SHOWN.some((re) => re.test("h('button', { class: ")));
  assert.ok(!NOT_SHOWN.some((re) => re.test("h('button', { type: 'button' }, ")));
  const sample = [
    "h('button', { type: 'button', class: 'primary big' }, 'Remove');",
    "el.textContent = `Hand ${n} is over`;",
    "h('input', { placeholder: 'e.g. Grandma' });",
    "h('p', {}, t('lobby.welcome'));",
  ].join('\n');
  assert.deepEqual(hardCoded(sample, 'sample'), ['sample:1: Remove', 'sample:2: Hand ${n} is over', 'sample:3: e.g. Grandma']);
});
