// @ts-check
// The lobby: choose a game and its options, create a table, or join an open one.
//
// Owns: the lobby page (name, new table form, open tables) and the names of games and options
// in words. May not touch: the table page.

import { h, replaceChildren } from './dom.js';
import { hasKey, languageSwitch, t, tParts } from './i18n/index.js';
import { newPracticeState, pbnToSend, practiceDealFields, takeRefusal, takesPbn } from './practice-deal.js';
import { loadName, savedTables, saveHostKey, saveName } from './store.js';

/** The variants the catalogue has words for (others show their wire name). */
export const VARIANTS = ['hearts', 'filippa', 'hearts5', 'tricks', 'whist', 'spades', 'ohhell', 'euchre'];

/** The title of a variant, falling back to its wire name. */
export function variantTitle(/** @type {string} */ name) {
  return hasKey(`variant.${name}`) ? t(`variant.${name}`) : name;
}

/** A catalogue's words for `key`, or the server's English `fallback` for a thing it does not know. @param {string} key @param {string} fallback */
export function tOr(key, fallback) {
  return hasKey(key) ? t(key) : fallback;
}

/**
 * Shorter matches for an evening with the family, offered beside the rules' defaults: option
 * values per variant (the words are `family.<variant>`). Only suggestions: every option stays
 * editable.
 * @type {Record<string, { options: Record<string, unknown> }>}
 */
export const FAMILY_PRESETS = {
  hearts: { options: { target: 50 } },
  filippa: { options: { target: 50 } },
  hearts5: { options: { hands: 3 } },
  tricks: { options: { target: 10, bad_card: 'reject' } },
  whist: { options: { target: 3 } },
  spades: { options: { target: 200 } },
  ohhell: { options: { schedule: 'down' } },
  euchre: { options: { target: 5 } },
};

/**
 * How many play a variant: "4 players", or "3–7 players" where an option chooses (the
 * entry's `facts.player_counts`).
 * @param {any} variant an `/api/variants` entry
 */
export function playersText(variant) {
  const counts = variant.facts?.player_counts;
  if (counts && counts.min !== counts.max) return t('lobby.players_range', { min: counts.min, max: counts.max });
  return t('lobby.players', { count: variant.players });
}

/**
 * A refusal in words: by its stable code (with `args`) where the catalogue has it, else the
 * server's English sentence.
 * @param {{ code?: string, message?: string }} body @param {Record<string, unknown>} [args]
 */
export function refusalText(body, args = {}) {
  const key = `error.${body.code}`;
  if (body.code && hasKey(key)) return t(key, args);
  return body.message || t('error.unknown');
}

/** Reads an HTTP error body `{code, message}` into a sentence. */
export async function errorText(/** @type {Response} */ res) {
  return bodyText(res, await errorBody(res));
}

/** An HTTP error's body `{code, message}`, or null when it is not one. @param {Response} res */
async function errorBody(res) {
  try {
    const body = await res.json();
    return body && (body.code || body.message) ? body : null;
  } catch {
    return null;
  }
}

/** An error body read by `errorBody` in words, or the bare status. @param {Response} res @param {{ code?: string, message?: string } | null} body */
function bodyText(res, body) {
  return body ? refusalText(body) : t('error.status', { status: res.status });
}

/**
 * The lobby's state and its three panels.
 * @typedef {object} Lobby
 * @property {{ variants: any[], chosen: string, tables: any[], error: string, busy: boolean, family: boolean, presets: Record<string, number>, optionsOpen: boolean, hints: boolean, tableName: string, spectatorChat: boolean, settingsOpen: boolean, listed: boolean, practice: import('./practice-deal.js').PracticeState }} state
 * @property {HTMLElement} nameBox
 * @property {HTMLElement} createBox
 * @property {HTMLElement} tablesBox
 */

/** The "who are you" panel: the saved name, or a form for it. @param {Lobby} lobby @param {boolean} [editing] */
function renderName(lobby, editing = !loadName()) {
  const name = loadName();
  if (!editing) {
    replaceChildren(
      lobby.nameBox,
      h('h2', { id: 'name-title' }, t('lobby.welcome')),
      h('p', { class: 'playing-as' }, tParts('lobby.playing_as', { name: h('strong', {}, name) }), ' ',
        h('button', { class: 'link', type: 'button', onclick: () => renderName(lobby, true) }, t('lobby.change_name'))),
    );
    return;
  }
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: 'name-input', name: 'name', autocomplete: 'nickname', maxlength: 32, required: true,
    value: name, placeholder: t('lobby.name_placeholder'),
  }));
  const form = h('form', {
    class: 'name-form',
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      if (!input.value.trim()) return;
      saveName(input.value);
      renderName(lobby, false);
      renderCreate(lobby);
    },
  },
  h('label', { for: 'name-input' }, t('lobby.name_label')),
  h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary' }, t('lobby.save_name'))));
  replaceChildren(lobby.nameBox, h('h2', { id: 'name-title' }, t('lobby.welcome_ask')), form);
  if (!name) input.focus();
}

/** The input for one option of a variant, showing `value`. @param {any} spec @param {unknown} value */
function optionInput(spec, value) {
  const id = `opt-${spec.name}`;
  const label = tOr(`option.${spec.name}`, spec.name);
  const hint = tOr(`option.${spec.name}.hint`, spec.description);
  if (spec.type === 'boolean') {
    return h('div', { class: 'option check' },
      h('input', { type: 'checkbox', id, name: spec.name, checked: value === true }),
      h('label', { for: id }, label),
      h('p', { class: 'hint' }, hint));
  }
  if (spec.type === 'choice') {
    return h('div', { class: 'option' },
      h('label', { for: id }, label),
      h('select', { id, name: spec.name },
        spec.values.map((/** @type {string} */ v) => h('option', { value: v, selected: v === value }, tOr(`choice.${v}`, v)))),
      h('p', { class: 'hint' }, hint));
  }
  return h('div', { class: 'option' },
    h('label', { for: id }, label),
    h('input', { type: 'number', id, name: spec.name, min: spec.min, max: spec.max, value, inputmode: 'numeric' }),
    h('p', { class: 'hint' }, hint));
}

/** The options chosen in the form. @param {HTMLFormElement} form @param {any} variant */
function readOptions(form, variant) {
  /** @type {Record<string, unknown>} */
  const options = {};
  for (const spec of variant.options) {
    const el = /** @type {any} */ (form.elements.namedItem(spec.name));
    if (!el) continue;
    if (spec.type === 'boolean') options[spec.name] = el.checked;
    else if (spec.type === 'integer') options[spec.name] = Number(el.value);
    else options[spec.name] = el.value;
  }
  return options;
}

/** The table settings the form chose. @param {Lobby['state']} state */
function tableOptions(state) {
  /** @type {Record<string, unknown>} */
  const options = { bot_delay_ms: 600, hints: state.hints !== false, listed: state.listed === true };
  if (state.spectatorChat) options.spectator_chat = true;
  const name = (state.tableName || '').trim();
  if (name) options.name = name;
  return options;
}

/** Creates the table and goes to it, to sit down at once. @param {Lobby} lobby @param {HTMLFormElement} form */
async function create(lobby, form) {
  const { state } = lobby;
  if (!loadName()) {
    state.error = t('lobby.name_first');
    renderCreate(lobby);
    document.getElementById('name-input')?.focus();
    return;
  }
  const variant = state.variants.find((v) => v.name === state.chosen);
  const options = readOptions(form, variant);
  const pbn = pbnToSend(state.practice, variant.name);
  state.busy = true;
  state.error = '';
  state.practice.refusal = '';
  renderCreate(lobby);
  try {
    const res = await fetch('api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        variant: variant.name,
        options,
        table_options: tableOptions(state),
        pbn,
      }),
    });
    if (!res.ok) {
      const body = await errorBody(res);
      // A board the server cannot read: said under the box, and the keyboard back in it.
      if (pbn !== undefined && takeRefusal(state.practice, body)) {
        state.busy = false;
        renderCreate(lobby);
        document.getElementById('pbn-text')?.focus({ preventScroll: true });
        // The box's label at the top of the screen, the reason under the box: clear of the sticky "Create table".
        document.getElementById('pbn-text')?.parentElement?.scrollIntoView({ block: 'start' });
        return;
      }
      throw new Error(bodyText(res, body));
    }
    const body = await res.json();
    // The creator sits down at once and so becomes the host; the host key (shown only in
    // this answer) lets this browser take the role back from any seat or after a restart.
    if (body.host_key) saveHostKey(body.id, body.host_key);
    sessionStorage.setItem(`parlor.autosit.${body.id}`, '1');
    location.assign(`t/${encodeURIComponent(body.id)}`);
  } catch (e) {
    state.busy = false;
    state.error = /** @type {Error} */ (e).message || t('lobby.create_failed');
    renderCreate(lobby);
  }
}

/** The radio buttons of the games. @param {Lobby} lobby @param {any} chosen */
function variantChoices(lobby, chosen) {
  return h('fieldset', { class: 'variants' },
    h('legend', {}, t('lobby.which_game')),
    lobby.state.variants.map((v) => h('label', { class: `variant${v.name === chosen.name ? ' chosen' : ''}` },
      h('input', {
        type: 'radio', name: 'variant', value: v.name, checked: v.name === chosen.name,
        onchange: () => {
          lobby.state.chosen = v.name;
          renderCreate(lobby);
          /** @type {HTMLElement | null} */ (document.querySelector(`input[value="${v.name}"]`))?.focus();
        },
      }),
      h('span', { class: 'variant-text' },
        h('span', { class: 'variant-name' }, variantTitle(v.name), h('span', { class: 'players' }, ` · ${playersText(v)}`)),
        h('span', { class: 'variant-desc' }, tOr(`variant.${v.name}.desc`, v.description))))));
}

/**
 * A short match for a family evening, or the rules' own length: choosing fills in the options.
 * @param {Lobby} lobby @param {any} variant
 */
function lengthChoice(lobby, variant) {
  const choose = (/** @type {boolean} */ family) => () => {
    lobby.state.family = family;
    renderCreate(lobby);
    /** @type {HTMLElement | null} */ (document.getElementById(family ? 'length-family' : 'length-rules'))?.focus();
  };
  const rules = variant.options.filter((/** @type {any} */ o) => o.name === 'target' || o.name === 'hands')
    .map((/** @type {any} */ o) => (o.name === 'hands' ? t('lobby.length_hands', { count: o.default }) : t('lobby.length_points', { count: o.default }))).join('');
  return h('fieldset', { class: 'variants length' },
    h('legend', {}, t('lobby.how_long')),
    h('label', { class: `variant${lobby.state.family ? ' chosen' : ''}` },
      h('input', { type: 'radio', name: 'length', id: 'length-family', value: 'family', checked: lobby.state.family, onchange: choose(true) }),
      h('span', { class: 'variant-text' }, h('span', { class: 'variant-name' }, t('lobby.family')), h('span', { class: 'variant-desc' }, t('lobby.family_desc', { text: t(`family.${variant.name}`) })))),
    h('label', { class: `variant${lobby.state.family ? '' : ' chosen'}` },
      h('input', { type: 'radio', name: 'length', id: 'length-rules', value: 'rules', checked: !lobby.state.family, onchange: choose(false) }),
      h('span', { class: 'variant-text' }, h('span', { class: 'variant-name' }, t('lobby.full_game')), h('span', { class: 'variant-desc' }, rules ? t('lobby.full_game_desc', { rules }) : t('lobby.full_game_plain')))));
}

/** A preset's words: the catalogue's for the presets it knows, else the server's. @param {string} variant @param {{ name: string, description: string }} preset */
function presetWords(variant, preset) {
  const key = `preset.${variant}.${preset.name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
  return { name: tOr(key, preset.name), description: tOr(`${key}.desc`, preset.description) };
}

/**
 * The variant's named house rules (`presets` of `/api/variants`, the rules' own first) as one
 * select, or null where it has none: choosing one fills in the options below, which stay
 * editable. A select, not radios, so that on a phone "Create table" stays near.
 * @param {Lobby} lobby @param {any} variant
 */
function houseRules(lobby, variant) {
  const presets = /** @type {any[]} */ (variant.presets || []);
  if (presets.length < 2) return null;
  const chosen = lobby.state.presets[variant.name] ?? 0;
  return h('div', { class: 'option presets' },
    h('label', { for: 'preset' }, t('lobby.house_rules')),
    h('select', {
      id: 'preset', name: 'preset', 'aria-describedby': 'preset-desc',
      onchange: (/** @type {any} */ e) => {
        lobby.state.presets = { ...lobby.state.presets, [variant.name]: Number(e.target.value) };
        renderCreate(lobby);
        document.getElementById('preset')?.focus();
      },
    }, presets.map((p, i) => h('option', { value: i, selected: i === chosen }, presetWords(variant.name, p).name))),
    h('p', { class: 'hint', id: 'preset-desc' }, presetWords(variant.name, presets[chosen]).description));
}

/** The "start a new table" panel. @param {Lobby} lobby */
function renderCreate(lobby) {
  const { state } = lobby;
  if (state.variants.length === 0) {
    replaceChildren(lobby.createBox, h('h2', { id: 'create-title' }, t('lobby.create_title')),
      h('p', { class: state.error ? 'error' : 'hint' }, state.error || t('lobby.loading_games')));
    return;
  }
  const variant = state.variants.find((v) => v.name === state.chosen) || state.variants[0];
  state.chosen = variant.name;
  const preset = FAMILY_PRESETS[variant.name];
  const family = Boolean(preset && state.family);
  // The house rules chosen set their options; a family evening then shortens the match.
  const house = variant.presets?.[state.presets[variant.name] ?? 0]?.options || {};
  const value = (/** @type {any} */ spec) => (family && preset.options[spec.name] !== undefined ? preset.options[spec.name]
    : house[spec.name] !== undefined ? house[spec.name] : spec.default);
  // The options are folded away, so that on a phone "Create table" is not a long scroll down.
  const options = variant.options.length
    ? h('details', {
      class: 'more-options', open: state.optionsOpen || null,
      ontoggle: (/** @type {any} */ e) => { state.optionsOpen = e.target.open; },
    },
    h('summary', {}, t('lobby.change_rules')),
    h('fieldset', { class: 'options' }, h('legend', {}, t('lobby.options_of', { game: variantTitle(variant.name) })), variant.options.map((/** @type {any} */ spec) => optionInput(spec, value(spec)))))
    : null;
  const form = h('form', {
    class: 'create-form',
    onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); create(lobby, /** @type {HTMLFormElement} */ (e.target)); },
  }, variantChoices(lobby, variant), houseRules(lobby, variant), preset ? lengthChoice(lobby, variant) : null, options,
  takesPbn(variant.name) ? practiceDealFields(state.practice, () => renderCreate(lobby)) : null,
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'allow-hints', name: 'hints', checked: state.hints !== false,
      onchange: (/** @type {any} */ e) => { state.hints = e.target.checked; },
    }),
    h('label', { for: 'allow-hints' }, t('lobby.allow_hints')),
    h('p', { class: 'hint' }, t('lobby.allow_hints_hint'))),
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'list-table', name: 'listed', checked: state.listed === true,
      onchange: (/** @type {any} */ e) => { state.listed = e.target.checked; },
    }),
    h('label', { for: 'list-table' }, t('lobby.list_table')),
    h('p', { class: 'hint' }, t('lobby.list_table_hint'))),
  tableSettings(state),
  h('p', { class: 'hint' }, t('lobby.empty_seats_hint')),
  h('div', { class: 'row create-row' }, h('button', { type: 'submit', class: 'primary big', id: 'create-table', disabled: state.busy }, state.busy ? t('lobby.creating') : t('lobby.create'))),
  state.error ? h('p', { class: 'error', role: 'alert' }, state.error) : null);
  replaceChildren(lobby.createBox, h('h2', { id: 'create-title' }, t('lobby.create_title')), form);
}

/**
 * A name for the table and whether watchers may chat, folded away like the rules.
 * @param {Lobby['state']} state
 */
function tableSettings(state) {
  return h('details', {
    class: 'more-options table-settings', open: state.settingsOpen || null,
    ontoggle: (/** @type {any} */ e) => { state.settingsOpen = e.target.open; },
  },
  h('summary', {}, t('lobby.settings')),
  h('div', { class: 'option' },
    h('label', { for: 'table-name' }, t('lobby.table_name')),
    h('input', {
      id: 'table-name', name: 'table_name', maxlength: 40, autocomplete: 'off', value: state.tableName || '',
      placeholder: t('lobby.table_name_placeholder'),
      oninput: (/** @type {any} */ e) => { state.tableName = e.target.value; },
    })),
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'spectator-chat', name: 'spectator_chat', checked: Boolean(state.spectatorChat),
      onchange: (/** @type {any} */ e) => { state.spectatorChat = e.target.checked; },
    }),
    h('label', { for: 'spectator-chat' }, t('lobby.watchers_chat')),
    h('p', { class: 'hint' }, t('lobby.watchers_chat_hint'))));
}

/** What a table is called in the lists: the name its host gave it, its host's ("Grandma’s table"), or its game's name. @param {any} table a TableInfo */
function tableName(table) {
  const named = table.table_options?.name;
  if (named) return `${named} · ${variantTitle(table.variant)}`;
  const host = table.seats.find((/** @type {any} */ s) => s.seat === table.host && s.occupant === 'human' && s.name);
  return host ? `${t('lobby.hosts_table', { name: host.name })} · ${variantTitle(table.variant)}` : variantTitle(table.variant);
}

/** One table in a list. @param {any} table a TableInfo */
function tableItem(table) {
  const taken = table.seats.filter((/** @type {any} */ s) => s.occupant !== 'empty').length;
  const people = table.seats.filter((/** @type {any} */ s) => s.occupant === 'human').map((/** @type {any} */ s) => s.name).filter(Boolean);
  return h('li', { class: 'table-item', 'data-table': table.id },
    h('div', {},
      h('div', { class: 'variant-name' }, tableName(table),
        table.practice ? h('span', { class: 'badge practice' }, t('lobby.practice_badge')) : null),
      h('div', { class: 'hint' }, `${tOr(`status.${table.status}`, table.status)} · ${t('lobby.seats_taken', { taken, count: table.seats.length })}`,
        people.length ? ` · ${people.join(', ')}` : '')),
    h('a', { class: 'button', href: `t/${encodeURIComponent(table.id)}` }, table.status === 'waiting' && taken < table.seats.length ? t('lobby.join') : t('lobby.open')));
}

/**
 * The tables panel: first the tables this browser sits at, then the others still open.
 * Finished tables are not listed.
 * @param {Lobby} lobby
 */
function renderTables(lobby) {
  const live = lobby.state.tables.filter((t) => t.status !== 'finished');
  const saved = new Set(savedTables());
  const mine = live.filter((t) => saved.has(t.id));
  const others = live.filter((t) => !saved.has(t.id));
  const list = others.length
    ? h('ul', { class: 'table-list', id: 'open-tables' }, others.map(tableItem))
    : h('p', { class: 'hint' }, t('lobby.no_tables'));
  replaceChildren(lobby.tablesBox,
    mine.length ? h('h2', { id: 'my-tables-title' }, t('lobby.your_tables')) : null,
    mine.length ? h('ul', { class: 'table-list my-tables', id: 'my-tables', 'aria-labelledby': 'my-tables-title' }, mine.map(tableItem)) : null,
    h('div', { class: 'panel-head' }, h('h2', { id: 'tables-title' }, t('lobby.open_tables')),
      h('button', { type: 'button', class: 'link', onclick: () => loadTables(lobby) }, t('lobby.refresh'))),
    list,
    h('p', { class: 'hint' }, tParts('lobby.leaderboard_line', { link: h('a', { href: 'leaderboard', id: 'leaderboard-link' }, t('lobby.leaderboard_link')) })));
}

/** The most tables of this browser's own looked up one by one on each refresh. */
const MAX_OWN_TABLES = 20;

/**
 * Loads the listed tables and this browser's own (which are private unless listed: each is
 * asked for by its id) and shows them.
 * @param {Lobby} lobby
 */
async function loadTables(lobby) {
  try {
    const res = await fetch('api/tables');
    if (!res.ok) throw new Error(String(res.status));
    /** @type {any[]} */
    const tables = await res.json();
    const listed = new Set(tables.map((t) => t.id));
    const own = savedTables().filter((id) => !listed.has(id)).slice(0, MAX_OWN_TABLES);
    const found = await Promise.all(own.map(async (id) => {
      try {
        const one = await fetch(`api/tables/${encodeURIComponent(id)}`);
        return one.ok ? await one.json() : null;
      } catch {
        return null;
      }
    }));
    lobby.state.tables = tables.concat(found.filter(Boolean));
  } catch {
    // The list stays as it was; the next refresh tries again.
  }
  renderTables(lobby);
}

/** Shows the lobby in `root`. @param {HTMLElement} root */
export async function showLobby(root) {
  document.title = t('page.title');
  /** @type {Lobby} */
  const lobby = {
    state: { variants: [], chosen: 'hearts', tables: [], error: '', busy: false, family: false, presets: {}, optionsOpen: false, hints: true, listed: false, tableName: '', spectatorChat: false, settingsOpen: false, practice: newPracticeState() },
    nameBox: h('section', { class: 'panel', 'aria-labelledby': 'name-title' }),
    createBox: h('section', { class: 'panel', 'aria-labelledby': 'create-title' }),
    tablesBox: h('section', { class: 'panel', 'aria-labelledby': 'tables-title' }),
  };
  replaceChildren(
    root,
    h('div', { class: 'lobby-head' }, h('h1', { class: 'lobby-title' }, t('lobby.heading')),
      h('label', { class: 'language', for: 'language' }, t('lang.switch'), languageSwitch())),
    h('div', { class: 'lobby' }, h('div', { class: 'lobby-main' }, lobby.nameBox, lobby.createBox), lobby.tablesBox),
  );
  renderName(lobby);
  renderCreate(lobby);
  renderTables(lobby);
  try {
    const res = await fetch('api/variants');
    if (!res.ok) throw new Error(await errorText(res));
    lobby.state.variants = await res.json();
  } catch (e) {
    lobby.state.error = t('lobby.games_failed', { reason: /** @type {Error} */ (e).message });
  }
  renderCreate(lobby);
  await loadTables(lobby);
  const timer = setInterval(() => {
    if (!document.body.contains(lobby.tablesBox)) clearInterval(timer);
    else loadTables(lobby);
  }, 5000);
}
