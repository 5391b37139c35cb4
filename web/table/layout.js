// @ts-check
// Which parts the table page shows and in what order: the join page, the "open elsewhere" page,
// or the table (head, seats, the game, the invite box), plus the tab's title.
//
// Owns: the page's root element and the choice of parts; each part draws itself. May not
// touch: the state.

import { h, replaceChildren } from '../dom.js';
import { t } from '../i18n/index.js';
import { feltPart } from './felt.js';
import { handPart } from './hand.js';
import { headPart, tableTitle } from './head.js';
import { inviteBox } from './invite.js';
import { fitToScreen } from './fit.js';
import { elsewherePage, joinPart } from './join.js';
import { part } from './part.js';
import { sideSheetPart } from './score-sheet.js';
import { seatsPart } from './seats.js';
import { textViewPart } from './text-view.js';
import { factsOf, variantName } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./actions.js').Actions} Actions */
/** @typedef {import('./part.js').Part<TableState>} Part */

/**
 * The game: felt and hand (or a note for spectators), the score sheet beside, and the table in words.
 * @param {Actions} actions @param {import('./announcer.js').Announcer} announcer @returns {Part}
 */
function gamePart(actions, announcer) {
  const felt = feltPart(actions);
  const hand = handPart(actions);
  const note = h('p', { class: 'hint spectator-note' }, t('layout.watching'));
  const sheet = sideSheetPart();
  const words = textViewPart(actions, announcer);
  const playArea = h('div', { class: 'play-area' });
  const el = h('div', { class: 'game' }, playArea, sheet.el, words.el);
  const fit = fitToScreen(el);
  /** @type {boolean | null} */
  let playing = null;
  return {
    el,
    update(s) {
      fit();
      if (playing !== (s.role === 'player')) {
        playing = s.role === 'player';
        playArea.replaceChildren(felt.el, playing ? hand.el : note);
      }
      felt.update(s);
      if (playing) hand.update(s);
      sheet.update(s);
      words.update(s);
    },
  };
}

/** The invite box at the bottom once the match is under way. @param {Actions} actions @returns {Part} */
function bottomInvitePart(actions) {
  return part(h('section', { class: 'panel invite-bottom' }), (s) => [s.copied], (el, s) => replaceChildren(el, inviteBox(s, actions)));
}

/** Which sections of the table page show now. @param {TableState} s */
function sections(s) {
  const status = s.table?.status;
  // The game needs the variant's facts to be drawn; until they come, the seats stand in.
  const inGame = Boolean(s.view && factsOf(s)) && (status === 'playing' || status === 'finished' || !s.table);
  return {
    seats: !inGame || status === 'waiting' || status === 'finished',
    game: inGame,
    invite: status === 'playing',
  };
}

/** The whole table page in `root`. @param {HTMLElement} root @param {Actions} actions @param {import('./announcer.js').Announcer} announcer */
export function tableLayout(root, actions, announcer) {
  const join = joinPart(actions);
  const head = headPart(actions);
  const seats = seatsPart(actions);
  const game = gamePart(actions, announcer);
  const invite = bottomInvitePart(actions);
  const page = h('div', {});
  let shown = '';
  /** @param {TableState} s */
  return (s) => {
    const title = tableTitle(s) || t('layout.table');
    // The tab's title says when it is your move, for people looking at another tab.
    const yourMove = s.role === 'player' && s.view && s.view.legal.type !== 'wait';
    document.title = yourMove ? t('layout.title_turn', { title }) : t('layout.title', { title });
    if (s.role === 'none' || s.role === 'joining') {
      if (shown !== 'join') root.replaceChildren(join.el);
      shown = 'join';
      join.update(s);
      return;
    }
    if (s.role === 'elsewhere') {
      if (shown !== 'elsewhere') replaceChildren(root, elsewherePage(actions));
      shown = 'elsewhere';
      return;
    }
    const want = sections(s);
    const key = `table:${want.seats}:${want.game}:${want.invite}`;
    page.className = `table-page variant-${variantName(s)}`;
    if (shown !== key) {
      // The game moves when the seats come back (the match over): the focus stays where it was,
      // if that is still on the page (else the parts drawn next say where it goes).
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      page.replaceChildren(...[head, want.seats && seats, want.game && game, want.invite && invite].filter((p) => p).map((p) => /** @type {Part} */ (p).el));
      if (active && active !== document.body && page.contains(active) && document.activeElement !== active) active.focus({ preventScroll: true });
      if (!page.isConnected) root.replaceChildren(page);
      shown = key;
    }
    head.update(s);
    if (want.seats) seats.update(s);
    if (want.game) game.update(s);
    if (want.invite) invite.update(s);
  };
}
