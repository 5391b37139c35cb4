// @ts-check
// The lobby: choose a game and its options, create a table, or join an open one.
//
// Owns: the lobby page (name, new table form, open tables) and the names of games and options
// in words. May not touch: the table page.

import { h, replaceChildren } from './dom.js';
import { loadName, savedTables, saveHostKey, saveName } from './store.js';

/** Names people know the variants by. */
/** @type {Record<string, string>} */
export const VARIANT_TITLES = {
  hearts: 'Hearts',
  filippa: 'Filippa',
  hearts5: 'Hearts for five',
  tricks: 'Tricks',
  whist: 'Whist',
  spades: 'Spades',
  ohhell: 'Oh Hell',
};

/** The title of a variant, falling back to its wire name. */
export function variantTitle(/** @type {string} */ name) {
  return VARIANT_TITLES[name] || name;
}

/** @type {Record<string, string>} */
const OPTION_LABELS = {
  target: 'Points to end the match',
  passing: 'Pass cards before each hand',
  moon: 'Shooting the moon',
  hands: 'Number of hands',
  bad_card: 'An illegal card',
  mercy: 'A side loses at minus this many points',
  nil: 'Nil bids (a bid of no tricks)',
  bag_limit: 'Bags before they cost points',
  bag_penalty: 'What the bags cost',
  spades_broken: 'No leading spades until they are broken',
  jokers: 'Jokers above the ace of spades (no 2♣ or 2♦)',
  players: 'Players',
  schedule: 'Hand sizes',
  hook: 'The dealer may not make the bids add up',
  scoring: 'Scoring',
};

/** @type {Record<string, string>} */
const CHOICE_LABELS = {
  add: 'adds 26 to everyone else',
  subtract: 'takes 26 off the shooter',
  penalty: 'costs 100 points and a redeal',
  reject: 'is refused and asked again',
  down_up: 'from the largest down to one card and back up',
  down: 'from the largest down to one card',
  up: 'from one card up to the largest',
  up_down: 'from one card up to the largest and back down',
  standard: 'only exact bids score',
  minus_difference: 'exact bids score, a miss loses the difference',
  tricks_plus_ten: 'a point a trick, and a bonus for an exact bid',
};

/**
 * Shorter matches for an evening with the family, offered beside the rules' defaults: option
 * values per variant, and how the choice reads. Only suggestions: every option stays editable.
 * @type {Record<string, { options: Record<string, unknown>, text: string }>}
 */
export const FAMILY_PRESETS = {
  hearts: { options: { target: 50 }, text: 'first to 50 points' },
  filippa: { options: { target: 50 }, text: 'first to 50 points' },
  hearts5: { options: { hands: 3 }, text: '3 hands' },
  tricks: { options: { target: 10, bad_card: 'reject' }, text: 'first to 10 tricks, an illegal card is simply refused' },
  whist: { options: { target: 3 }, text: 'first side to 3 points' },
  spades: { options: { target: 200 }, text: 'first side to 200 points' },
  ohhell: { options: { schedule: 'down' }, text: 'hands from the largest down to one card' },
};

/**
 * How many play a variant: "4 players", or "3–7 players" where an option chooses (the
 * entry's `facts.player_counts`).
 * @param {any} variant an `/api/variants` entry
 */
export function playersText(variant) {
  const counts = variant.facts?.player_counts;
  if (counts && counts.min !== counts.max) return `${counts.min}–${counts.max} players`;
  return `${variant.players} players`;
}

/** @type {Record<string, string>} */
const STATUS_TEXT = { waiting: 'Waiting for players', playing: 'Playing', finished: 'Match over' };

/** Reads an HTTP error body `{code, message}` into a sentence. */
export async function errorText(/** @type {Response} */ res) {
  try {
    const body = await res.json();
    return body.message || `The server said ${res.status}.`;
  } catch {
    return `The server said ${res.status}.`;
  }
}

/**
 * The lobby's state and its three panels.
 * @typedef {object} Lobby
 * @property {{ variants: any[], chosen: string, tables: any[], error: string, busy: boolean, family: boolean, optionsOpen: boolean, hints: boolean, tableName: string, spectatorChat: boolean, settingsOpen: boolean, listed: boolean }} state
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
      h('h2', { id: 'name-title' }, 'Welcome'),
      h('p', { class: 'playing-as' }, 'You play as ', h('strong', {}, name), ' ',
        h('button', { class: 'link', type: 'button', onclick: () => renderName(lobby, true) }, 'change name')),
    );
    return;
  }
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: 'name-input', name: 'name', autocomplete: 'nickname', maxlength: 32, required: true,
    value: name, placeholder: 'e.g. Grandma',
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
  h('label', { for: 'name-input' }, 'Your name, as the others will see it'),
  h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary' }, 'Save name')));
  replaceChildren(lobby.nameBox, h('h2', { id: 'name-title' }, 'Welcome! What is your name?'), form);
  if (!name) input.focus();
}

/** The input for one option of a variant, showing `value`. @param {any} spec @param {unknown} value */
function optionInput(spec, value) {
  const id = `opt-${spec.name}`;
  const label = OPTION_LABELS[spec.name] || spec.name;
  if (spec.type === 'boolean') {
    return h('div', { class: 'option check' },
      h('input', { type: 'checkbox', id, name: spec.name, checked: value === true }),
      h('label', { for: id }, label),
      h('p', { class: 'hint' }, spec.description));
  }
  if (spec.type === 'choice') {
    return h('div', { class: 'option' },
      h('label', { for: id }, label),
      h('select', { id, name: spec.name },
        spec.values.map((/** @type {string} */ v) => h('option', { value: v, selected: v === value }, CHOICE_LABELS[v] || v))),
      h('p', { class: 'hint' }, spec.description));
  }
  return h('div', { class: 'option' },
    h('label', { for: id }, label),
    h('input', { type: 'number', id, name: spec.name, min: spec.min, max: spec.max, value, inputmode: 'numeric' }),
    h('p', { class: 'hint' }, spec.description));
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
    state.error = 'Please tell us your name first.';
    renderCreate(lobby);
    document.getElementById('name-input')?.focus();
    return;
  }
  const variant = state.variants.find((v) => v.name === state.chosen);
  state.busy = true;
  state.error = '';
  renderCreate(lobby);
  try {
    const res = await fetch('api/tables', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        variant: variant.name,
        options: readOptions(form, variant),
        table_options: tableOptions(state),
      }),
    });
    if (!res.ok) throw new Error(await errorText(res));
    const body = await res.json();
    // The creator sits down at once and so becomes the host; the host key (shown only in
    // this answer) lets this browser take the role back from any seat or after a restart.
    if (body.host_key) saveHostKey(body.id, body.host_key);
    sessionStorage.setItem(`parlor.autosit.${body.id}`, '1');
    location.assign(`t/${encodeURIComponent(body.id)}`);
  } catch (e) {
    state.busy = false;
    state.error = /** @type {Error} */ (e).message || 'The table could not be created.';
    renderCreate(lobby);
  }
}

/** The radio buttons of the games. @param {Lobby} lobby @param {any} chosen */
function variantChoices(lobby, chosen) {
  return h('fieldset', { class: 'variants' },
    h('legend', {}, 'Which game?'),
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
        h('span', { class: 'variant-desc' }, v.description)))));
}

/**
 * A short match for a family evening, or the rules' own length: choosing fills in the options.
 * @param {Lobby} lobby @param {any} variant @param {{ text: string }} preset
 */
function lengthChoice(lobby, variant, preset) {
  const choose = (/** @type {boolean} */ family) => () => {
    lobby.state.family = family;
    renderCreate(lobby);
    /** @type {HTMLElement | null} */ (document.getElementById(family ? 'length-family' : 'length-rules'))?.focus();
  };
  const rules = variant.options.filter((/** @type {any} */ o) => o.name === 'target' || o.name === 'hands')
    .map((/** @type {any} */ o) => (o.name === 'hands' ? `${o.default} hands` : `to ${o.default} points`)).join('');
  return h('fieldset', { class: 'variants length' },
    h('legend', {}, 'How long a match?'),
    h('label', { class: `variant${lobby.state.family ? ' chosen' : ''}` },
      h('input', { type: 'radio', name: 'length', id: 'length-family', value: 'family', checked: lobby.state.family, onchange: choose(true) }),
      h('span', { class: 'variant-text' }, h('span', { class: 'variant-name' }, 'A family evening'), h('span', { class: 'variant-desc' }, `Shorter: ${preset.text}.`))),
    h('label', { class: `variant${lobby.state.family ? '' : ' chosen'}` },
      h('input', { type: 'radio', name: 'length', id: 'length-rules', value: 'rules', checked: !lobby.state.family, onchange: choose(false) }),
      h('span', { class: 'variant-text' }, h('span', { class: 'variant-name' }, 'The full game'), h('span', { class: 'variant-desc' }, `The rules’ own length${rules ? ` (${rules})` : ''}.`))));
}

/** The "start a new table" panel. @param {Lobby} lobby */
function renderCreate(lobby) {
  const { state } = lobby;
  if (state.variants.length === 0) {
    replaceChildren(lobby.createBox, h('h2', { id: 'create-title' }, 'Create a table'),
      h('p', { class: state.error ? 'error' : 'hint' }, state.error || 'Loading games…'));
    return;
  }
  const variant = state.variants.find((v) => v.name === state.chosen) || state.variants[0];
  state.chosen = variant.name;
  const preset = FAMILY_PRESETS[variant.name];
  const family = Boolean(preset && state.family);
  const value = (/** @type {any} */ spec) => (family && preset.options[spec.name] !== undefined ? preset.options[spec.name] : spec.default);
  // The options are folded away, so that on a phone "Create table" is not a long scroll down.
  const options = variant.options.length
    ? h('details', {
      class: 'more-options', open: state.optionsOpen || null,
      ontoggle: (/** @type {any} */ e) => { state.optionsOpen = e.target.open; },
    },
    h('summary', {}, 'Change the rules'),
    h('fieldset', { class: 'options' }, h('legend', {}, `${variantTitle(variant.name)} options`), variant.options.map((/** @type {any} */ spec) => optionInput(spec, value(spec)))))
    : null;
  const form = h('form', {
    class: 'create-form',
    onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); create(lobby, /** @type {HTMLFormElement} */ (e.target)); },
  }, variantChoices(lobby, variant), preset ? lengthChoice(lobby, variant, preset) : null, options,
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'allow-hints', name: 'hints', checked: state.hints !== false,
      onchange: (/** @type {any} */ e) => { state.hints = e.target.checked; },
    }),
    h('label', { for: 'allow-hints' }, 'Allow hints'),
    h('p', { class: 'hint' }, 'Players may ask the computer to suggest a card on their turn.')),
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'list-table', name: 'listed', checked: state.listed === true,
      onchange: (/** @type {any} */ e) => { state.listed = e.target.checked; },
    }),
    h('label', { for: 'list-table' }, 'List this table under "Open tables"'),
    h('p', { class: 'hint' }, 'Anyone on this server could then find and join it. Otherwise only people you send the link to can.')),
  tableSettings(state),
  h('p', { class: 'hint' }, 'Empty seats can be given to computer players once the table is open.'),
  h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary big', id: 'create-table', disabled: state.busy }, state.busy ? 'Creating…' : 'Create table')),
  state.error ? h('p', { class: 'error', role: 'alert' }, state.error) : null);
  replaceChildren(lobby.createBox, h('h2', { id: 'create-title' }, 'Create a table'), form);
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
  h('summary', {}, 'Name the table, let watchers chat'),
  h('div', { class: 'option' },
    h('label', { for: 'table-name' }, 'Table name (optional)'),
    h('input', {
      id: 'table-name', name: 'table_name', maxlength: 40, autocomplete: 'off', value: state.tableName || '',
      placeholder: 'e.g. Sunday hearts',
      oninput: (/** @type {any} */ e) => { state.tableName = e.target.value; },
    })),
  h('div', { class: 'option check' },
    h('input', {
      type: 'checkbox', id: 'spectator-chat', name: 'spectator_chat', checked: Boolean(state.spectatorChat),
      onchange: (/** @type {any} */ e) => { state.spectatorChat = e.target.checked; },
    }),
    h('label', { for: 'spectator-chat' }, 'Watchers may chat'),
    h('p', { class: 'hint' }, 'By default only the players write in the table talk; everyone reads it.')));
}

/** What a table is called in the lists: the name its host gave it, its host's ("Grandma’s table"), or its game's name. @param {any} t a TableInfo */
function tableName(t) {
  const named = t.table_options?.name;
  if (named) return `${named} · ${variantTitle(t.variant)}`;
  const host = t.seats.find((/** @type {any} */ s) => s.seat === t.host && s.occupant === 'human' && s.name);
  return host ? `${host.name}’s table · ${variantTitle(t.variant)}` : variantTitle(t.variant);
}

/** One table in a list. @param {any} t a TableInfo */
function tableItem(t) {
  const taken = t.seats.filter((/** @type {any} */ s) => s.occupant !== 'empty').length;
  const people = t.seats.filter((/** @type {any} */ s) => s.occupant === 'human').map((/** @type {any} */ s) => s.name).filter(Boolean);
  return h('li', { class: 'table-item', 'data-table': t.id },
    h('div', {},
      h('div', { class: 'variant-name' }, tableName(t),
        t.practice ? h('span', { class: 'badge practice' }, 'Practice: deals chosen by its creator') : null),
      h('div', { class: 'hint' }, `${STATUS_TEXT[t.status] || t.status} · ${taken} of ${t.seats.length} seats taken`,
        people.length ? ` · ${people.join(', ')}` : '')),
    h('a', { class: 'button', href: `t/${encodeURIComponent(t.id)}` }, t.status === 'waiting' && taken < t.seats.length ? 'Join' : 'Open'));
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
    : h('p', { class: 'hint' }, 'No open tables. Create one and invite your family!');
  replaceChildren(lobby.tablesBox,
    mine.length ? h('h2', { id: 'my-tables-title' }, 'Your tables') : null,
    mine.length ? h('ul', { class: 'table-list my-tables', id: 'my-tables', 'aria-labelledby': 'my-tables-title' }, mine.map(tableItem)) : null,
    h('div', { class: 'panel-head' }, h('h2', { id: 'tables-title' }, 'Open tables'),
      h('button', { type: 'button', class: 'link', onclick: () => loadTables(lobby) }, 'Refresh')),
    list,
    h('p', { class: 'hint' }, 'How good are the computer players? ', h('a', { href: 'leaderboard', id: 'leaderboard-link' }, 'See the leaderboard'), '.'));
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
  document.title = 'Parlor: card games';
  /** @type {Lobby} */
  const lobby = {
    state: { variants: [], chosen: 'hearts', tables: [], error: '', busy: false, family: false, optionsOpen: false, hints: true, listed: false },
    nameBox: h('section', { class: 'panel', 'aria-labelledby': 'name-title' }),
    createBox: h('section', { class: 'panel', 'aria-labelledby': 'create-title' }),
    tablesBox: h('section', { class: 'panel', 'aria-labelledby': 'tables-title' }),
  };
  replaceChildren(
    root,
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
    lobby.state.error = `The list of games could not be loaded: ${/** @type {Error} */ (e).message}`;
  }
  renderCreate(lobby);
  await loadTables(lobby);
  const timer = setInterval(() => {
    if (!document.body.contains(lobby.tablesBox)) clearInterval(timer);
    else loadTables(lobby);
  }, 5000);
}
