// @ts-check
// "Practice a deal": a Bridge table set up from a board in Portable Bridge Notation, pasted or
// read from a .pbn file in the browser and sent as `pbn` when the table is created.
//
// Owns: the fields of that part of the lobby's form and the words for the server's refusal of
// a board it cannot read. May not touch: the rest of the form (lobby.js draws it).

import { h } from './dom.js';
import { t, tParts } from './i18n/index.js';

/** The variants that take a PBN board. */
const PBN_VARIANTS = new Set(['bridge']);

/** How the server starts its reason for refusing a board: the headline already says as much. */
const REASON_PREFIX = /^bad PBN board:\s*/;

/**
 * What this part of the form remembers between redraws.
 * @typedef {object} PracticeState
 * @property {string} pbn the text as pasted or read (one board, or a file of several)
 * @property {number} board which of several boards in `pbn` to play (from 0)
 * @property {boolean} open whether the part is unfolded
 * @property {string} refusal the server's reason for refusing the text last sent ('' if none)
 * @property {string} fileNote what became of the last file chosen ('' if none)
 */

/** A fresh state: nothing pasted, folded away. @returns {PracticeState} */
export function newPracticeState() {
  return { pbn: '', board: 0, open: false, refusal: '', fileNote: '' };
}

/** Whether `variant` can be set up from a PBN board. @param {string} variant */
export function takesPbn(variant) {
  return PBN_VARIANTS.has(variant);
}

/** The text to send as `pbn` (the board chosen of several), or undefined when none is given. @param {PracticeState} state @param {string} variant */
export function pbnToSend(state, variant) {
  if (!takesPbn(variant) || !state.pbn.trim()) return undefined;
  const boards = boardsIn(state.pbn);
  return boards[Math.min(state.board, boards.length - 1)].text;
}

/**
 * The boards of a PBN text: a file of a whole match (another program's, or Parlor's own
 * download) holds one after another, and the server reads one. A board begins where a tag
 * comes again (a second `[Event`, `[Board`…). A text of one board or none is given back whole.
 * @param {string} text
 * @returns {{ number: string, text: string }[]}
 */
export function boardsIn(text) {
  /** @type {string[][]} */
  const games = [[]];
  let seen = new Set();
  for (const line of text.split(/\r?\n/)) {
    const tag = /^\s*\[(\w+)/.exec(line)?.[1];
    if (tag && seen.has(tag)) {
      games.push([]);
      seen = new Set();
    }
    if (tag) seen.add(tag);
    games[games.length - 1].push(line);
  }
  const boards = games.map((lines) => lines.join('\n'))
    .map((game) => ({ number: /^\s*\[Board\s+"([^"]*)"\]/m.exec(game)?.[1], text: game }))
    .filter((game) => game.number !== undefined);
  return boards.length > 1 ? /** @type {{ number: string, text: string }[]} */ (boards) : [{ number: '', text }];
}

/** The id of the refusal shown under the box, which the box then points to. */
const REFUSAL_ID = 'pbn-refusal';

/**
 * The folded "Practice a deal" part: a labelled text box for the board and a file picker that
 * fills it. `redraw` draws the form again (after a file is read).
 * @param {PracticeState} state @param {() => void} redraw
 */
export function practiceDealFields(state, redraw) {
  const refused = Boolean(state.refusal);
  return h('details', {
    class: 'more-options practice-deal', id: 'practice-deal', open: state.open || refused || null,
    ontoggle: (/** @type {any} */ e) => { state.open = e.target.open; },
  },
  h('summary', {}, t('lobby.practice_deal')),
  h('div', { class: 'option' },
    h('label', { for: 'pbn-text' }, t('lobby.pbn_label')),
    h('textarea', {
      id: 'pbn-text', name: 'pbn', rows: 6, spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off',
      'aria-describedby': refused ? `pbn-desc ${REFUSAL_ID}` : 'pbn-desc', 'aria-invalid': refused ? 'true' : null,
      value: state.pbn,
      oninput: (/** @type {any} */ e) => {
        state.pbn = e.target.value;
        // Edited since the refusal: no longer marked as the text refused.
        e.target.removeAttribute('aria-invalid');
      },
      // A pasted match of several boards: offer the choice of one at once.
      onpaste: (/** @type {any} */ e) => setTimeout(() => {
        state.pbn = e.target.value;
        state.board = 0;
        const count = boardsIn(state.pbn).length;
        if (count < 2) return;
        state.fileNote = t('lobby.pbn_boards_found', { count });
        redraw();
        document.getElementById('pbn-text')?.focus();
      }),
    }),
    refusalNotice(state),
    h('p', { class: 'hint', id: 'pbn-desc' }, t('lobby.pbn_hint'))),
  boardChoice(state, redraw),
  h('div', { class: 'option' },
    h('label', { for: 'pbn-file' }, t('lobby.pbn_file')),
    h('input', {
      type: 'file', id: 'pbn-file', accept: '.pbn,.txt,text/plain', 'aria-describedby': 'pbn-file-note',
      onchange: (/** @type {any} */ e) => readFile(state, /** @type {File | undefined} */ (e.target.files?.[0]), redraw),
    }),
    h('p', { class: 'hint', id: 'pbn-file-note', 'aria-live': 'polite' }, state.fileNote)));
}

/**
 * Which board of several to play, or null for a text of one board.
 * @param {PracticeState} state @param {() => void} redraw
 */
function boardChoice(state, redraw) {
  const boards = boardsIn(state.pbn);
  if (boards.length < 2) return null;
  const chosen = Math.min(state.board, boards.length - 1);
  return h('div', { class: 'option' },
    h('label', { for: 'pbn-board' }, t('lobby.pbn_which_board')),
    h('select', {
      id: 'pbn-board', name: 'pbn_board',
      onchange: (/** @type {any} */ e) => {
        state.board = Number(e.target.value);
        redraw();
        document.getElementById('pbn-board')?.focus();
      },
    }, boards.map((b, i) => h('option', { value: i, selected: i === chosen }, t('lobby.pbn_board_option', { board: b.number, n: i + 1 })))));
}

/**
 * Reads the chosen file into the text box, in the browser (nothing is uploaded until the
 * table is created), and puts the keyboard back in the box to look it over.
 * @param {PracticeState} state @param {File | undefined} file @param {() => void} redraw
 */
async function readFile(state, file, redraw) {
  if (!file) return;
  try {
    state.pbn = await file.text();
    state.board = 0;
    const count = boardsIn(state.pbn).length;
    state.fileNote = count > 1 ? t('lobby.pbn_file_boards', { name: file.name, count }) : t('lobby.pbn_file_read', { name: file.name });
    state.refusal = '';
  } catch {
    state.fileNote = t('lobby.pbn_file_failed', { name: file.name });
  }
  state.open = true;
  redraw();
  document.getElementById('pbn-text')?.focus();
}

/**
 * Takes the server's refusal of a create request that sent a board: true (and remembers the
 * reason) when it refused the board itself (`bad_pbn`), false for any other refusal (worded
 * as usual).
 * @param {PracticeState} state @param {{ code?: string, message?: string } | null} body
 */
export function takeRefusal(state, body) {
  const message = body?.message || '';
  if (body?.code !== 'bad_pbn') return false;
  state.refusal = message.replace(REASON_PREFIX, '') || t('error.unknown');
  state.open = true;
  return true;
}

/**
 * The refusal in words under the box: what happened in the reader's language, then the
 * server's reason (written in English, and marked so for a screen reader).
 * @param {PracticeState} state
 */
function refusalNotice(state) {
  if (!state.refusal) return null;
  return h('div', { class: 'error pbn-refusal', id: REFUSAL_ID, role: 'alert' },
    h('p', {}, t('lobby.pbn_refused')),
    h('p', { class: 'pbn-reason' }, tParts('lobby.pbn_reason', { reason: h('span', { lang: 'en', dir: 'ltr' }, state.refusal) })));
}
