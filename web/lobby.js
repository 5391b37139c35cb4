// The lobby: choose a game and its options, create a table, or join an open one.

import { h, replaceChildren } from './dom.js';
import { loadName, saveName } from './store.js';

/** Names people know the variants by. */
export const VARIANT_TITLES = {
  hearts: 'Hearts',
  filippa: 'Filippa',
  hearts5: 'Hearts for five',
  tricks: 'Tricks',
  whist: 'Whist',
};

/** The title of a variant, falling back to its wire name. */
export function variantTitle(name) {
  return VARIANT_TITLES[name] || name;
}

const OPTION_LABELS = {
  target: 'Points to end the match',
  passing: 'Pass cards before each hand',
  moon: 'Shooting the moon',
  hands: 'Number of hands',
  bad_card: 'An illegal card',
};

const CHOICE_LABELS = {
  add: 'adds 26 to everyone else',
  subtract: 'takes 26 off the shooter',
  penalty: 'costs 100 points and a redeal',
  reject: 'is refused and asked again',
};

const STATUS_TEXT = { waiting: 'Waiting for players', playing: 'Playing', finished: 'Match over' };

/** Reads an HTTP error body `{code, message}` into a sentence. */
export async function errorText(res) {
  try {
    const body = await res.json();
    return body.message || `The server said ${res.status}.`;
  } catch {
    return `The server said ${res.status}.`;
  }
}

/** Shows the lobby in `root`. */
export async function showLobby(root) {
  document.title = 'Parlor: card games';
  const state = { variants: [], chosen: 'hearts', tables: [], error: '', busy: false };

  const nameBox = h('section', { class: 'panel', 'aria-labelledby': 'name-title' });
  const createBox = h('section', { class: 'panel', 'aria-labelledby': 'create-title' });
  const tablesBox = h('section', { class: 'panel', 'aria-labelledby': 'tables-title' });
  replaceChildren(
    root,
    h('div', { class: 'lobby' }, h('div', { class: 'lobby-main' }, nameBox, createBox), tablesBox),
  );

  function renderName(editing = !loadName()) {
    const name = loadName();
    if (!editing) {
      replaceChildren(
        nameBox,
        h('h2', { id: 'name-title' }, 'Welcome'),
        h('p', { class: 'playing-as' }, 'You play as ', h('strong', {}, name), ' ',
          h('button', { class: 'link', type: 'button', onclick: () => renderName(true) }, 'change name')),
      );
      return;
    }
    const input = h('input', {
      id: 'name-input', name: 'name', autocomplete: 'nickname', maxlength: 24, required: true,
      value: name, placeholder: 'e.g. Grandma',
    });
    const form = h('form', {
      class: 'name-form',
      onsubmit: (e) => {
        e.preventDefault();
        if (!input.value.trim()) return;
        saveName(input.value);
        renderName(false);
        renderCreate();
      },
    },
    h('label', { for: 'name-input' }, 'Your name, as the others will see it'),
    h('div', { class: 'row' }, input, h('button', { type: 'submit', class: 'primary' }, 'Save name')));
    replaceChildren(nameBox, h('h2', { id: 'name-title' }, 'Welcome! What is your name?'), form);
    if (!name) input.focus();
  }

  function optionInput(spec) {
    const id = `opt-${spec.name}`;
    const label = OPTION_LABELS[spec.name] || spec.name;
    if (spec.type === 'boolean') {
      return h('div', { class: 'option check' },
        h('input', { type: 'checkbox', id, name: spec.name, checked: spec.default === true }),
        h('label', { for: id }, label),
        h('p', { class: 'hint' }, spec.description));
    }
    if (spec.type === 'choice') {
      return h('div', { class: 'option' },
        h('label', { for: id }, label),
        h('select', { id, name: spec.name },
          spec.values.map((v) => h('option', { value: v, selected: v === spec.default }, CHOICE_LABELS[v] || v))),
        h('p', { class: 'hint' }, spec.description));
    }
    return h('div', { class: 'option' },
      h('label', { for: id }, label),
      h('input', { type: 'number', id, name: spec.name, min: spec.min, max: spec.max, value: spec.default, inputmode: 'numeric' }),
      h('p', { class: 'hint' }, spec.description));
  }

  function readOptions(form, variant) {
    const options = {};
    for (const spec of variant.options) {
      const el = form.elements[spec.name];
      if (!el) continue;
      if (spec.type === 'boolean') options[spec.name] = el.checked;
      else if (spec.type === 'integer') options[spec.name] = Number(el.value);
      else options[spec.name] = el.value;
    }
    return options;
  }

  async function create(form) {
    if (!loadName()) {
      state.error = 'Please tell us your name first.';
      renderCreate();
      document.getElementById('name-input')?.focus();
      return;
    }
    const variant = state.variants.find((v) => v.name === state.chosen);
    state.busy = true;
    state.error = '';
    renderCreate();
    try {
      const res = await fetch('/api/tables', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          variant: variant.name,
          options: readOptions(form, variant),
          table_options: { bot_delay_ms: 600 },
        }),
      });
      if (!res.ok) throw new Error(await errorText(res));
      const body = await res.json();
      // The creator sits down at once and so becomes the host.
      sessionStorage.setItem(`parlor.autosit.${body.id}`, '1');
      location.assign(body.invite || `/t/${body.id}`);
    } catch (e) {
      state.busy = false;
      state.error = e.message || 'The table could not be created.';
      renderCreate();
    }
  }

  function renderCreate() {
    if (state.variants.length === 0) {
      replaceChildren(createBox, h('h2', { id: 'create-title' }, 'Start a new table'),
        h('p', { class: state.error ? 'error' : 'hint' }, state.error || 'Loading games…'));
      return;
    }
    const variant = state.variants.find((v) => v.name === state.chosen) || state.variants[0];
    state.chosen = variant.name;
    const choices = h('fieldset', { class: 'variants' },
      h('legend', {}, 'Which game?'),
      state.variants.map((v) => h('label', { class: `variant${v.name === variant.name ? ' chosen' : ''}` },
        h('input', {
          type: 'radio', name: 'variant', value: v.name, checked: v.name === variant.name,
          onchange: () => { state.chosen = v.name; renderCreate(); document.querySelector(`input[value="${v.name}"]`)?.focus(); },
        }),
        h('span', { class: 'variant-text' },
          h('span', { class: 'variant-name' }, variantTitle(v.name), h('span', { class: 'players' }, ` · ${v.players} players`)),
          h('span', { class: 'variant-desc' }, v.description)))));
    const options = variant.options.length
      ? h('fieldset', { class: 'options' }, h('legend', {}, `${variantTitle(variant.name)} options`), variant.options.map(optionInput))
      : null;
    const form = h('form', {
      class: 'create-form',
      onsubmit: (e) => { e.preventDefault(); create(e.target); },
    }, choices, options,
    h('p', { class: 'hint' }, 'Empty seats can be given to computer players once the table is open.'),
    h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary big', id: 'create-table', disabled: state.busy }, state.busy ? 'Creating…' : 'Create table')),
    state.error ? h('p', { class: 'error', role: 'alert' }, state.error) : null);
    replaceChildren(createBox, h('h2', { id: 'create-title' }, 'Start a new table'), form);
  }

  function renderTables() {
    const list = state.tables.length
      ? h('ul', { class: 'table-list' }, state.tables.map((t) => {
        const taken = t.seats.filter((s) => s.occupant !== 'empty').length;
        const people = t.seats.filter((s) => s.occupant === 'human').map((s) => s.name).filter(Boolean);
        return h('li', { class: 'table-item' },
          h('div', {},
            h('div', { class: 'variant-name' }, variantTitle(t.variant)),
            h('div', { class: 'hint' }, `${STATUS_TEXT[t.status] || t.status} · ${taken} of ${t.seats.length} seats taken`,
              people.length ? ` · ${people.join(', ')}` : '')),
          h('a', { class: 'button', href: `/t/${encodeURIComponent(t.id)}` }, t.status === 'waiting' && taken < t.seats.length ? 'Join' : 'Open'));
      }))
      : h('p', { class: 'hint' }, 'No tables yet. Create one and invite your family!');
    replaceChildren(tablesBox,
      h('div', { class: 'panel-head' }, h('h2', { id: 'tables-title' }, 'Open tables'),
        h('button', { type: 'button', class: 'link', onclick: loadTables }, 'Refresh')),
      list);
  }

  async function loadTables() {
    try {
      const res = await fetch('/api/tables');
      if (res.ok) state.tables = await res.json();
    } catch {
      // The list stays as it was; the next refresh tries again.
    }
    renderTables();
  }

  renderName();
  renderCreate();
  renderTables();
  try {
    const res = await fetch('/api/variants');
    if (!res.ok) throw new Error(await errorText(res));
    state.variants = await res.json();
  } catch (e) {
    state.error = `The list of games could not be loaded: ${e.message}`;
  }
  renderCreate();
  await loadTables();
  const timer = setInterval(() => {
    if (!document.body.contains(tablesBox)) clearInterval(timer);
    else loadTables();
  }, 5000);
}
