// @ts-check
// The score sheet dialog: it opens by itself once per finished hand and at the end of the
// match (with the winners, and "Play again" for the host), or when asked for.
//
// Owns: the page's <dialog id="score-dialog">. May not touch: the state (closing goes through
// the actions).

import { t } from '../i18n/index.js';
import { h, replaceChildren } from '../dom.js';
import { focusIdleBidBox } from './bid.js';
import { isHost, seatName, winnersText } from './names.js';
import { scoreSheet, sheetInputs } from './score-sheet.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */

/** The dialog's content. @param {TableState} s @param {PlayerView} v @param {Actions} actions */
function dialogBody(s, v, actions) {
  const lastHand = v.history[v.history.length - 1];
  const over = v.phase === 'match_over';
  const host = isHost(s);
  const title = over ? t('dialog.match_over') : lastHand ? t('dialog.hand_over', { n: lastHand.hand + 1 }) : t('hand.score_sheet');
  const moon = lastHand && lastHand.moon !== null && lastHand.moon !== undefined ? t('dialog.moon', { name: seatName(s, lastHand.moon) }) : '';
  const buttons = [];
  if (over && host) {
    buttons.push(h('button', {
      type: 'button', class: 'primary big', id: 'play-again', 'data-focus': 'play-again',
      onclick: () => { actions.startMatch(); actions.closeScores(); },
    }, t('seats.play_again')));
  }
  buttons.push(h('button', { type: 'button', class: over && host ? '' : 'primary big', id: 'dialog-close', 'data-focus': 'dialog-close', onclick: () => actions.closeScores() },
    over ? t('common.close') : t('dialog.continue')));
  return h('div', { class: 'dialog-body' },
    h('h2', { id: 'dialog-title' }, title),
    over ? h('p', { class: 'winners', id: 'winners' }, `★ ${winnersText(s, v.winners)}`) : null,
    moon ? h('p', { class: 'moon-note' }, moon) : null,
    scoreSheet(s, 'in-dialog'),
    over && !host ? h('p', { class: 'hint' }, t('dialog.host_can')) : null,
    h('div', { class: 'row dialog-buttons' }, buttons));
}

/** Keeps the score dialog open, closed and current. @param {Store} store @param {Actions} actions */
export function scoreDialog(store, actions) {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById('score-dialog'));
  /** @type {unknown[] | null} */
  let last = null;
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    actions.closeScores();
  });
  return {
    /** @param {TableState} s */
    update(s) {
      const v = s.view;
      const seated = s.role === 'player' || s.role === 'spectator';
      const lastHand = v?.history[v.history.length - 1];
      if (seated && lastHand && lastHand.hand > s.dialogHand && s.dialogOpenFor === null) {
        // Open by itself once per finished hand (and at the end of the match).
        store.set({ dialogOpenFor: 'auto' });
        return;
      }
      if (!v || !seated || s.dialogOpenFor === null) {
        last = null;
        if (dialog.open) {
          dialog.close();
          // A bid asked for while the sheet was open: the keyboard goes to the bid box (from the
          // sheet's button, or from nowhere once the browser has put it back).
          const active = document.activeElement;
          if (!active || active === document.body || dialog.contains(active)) focusIdleBidBox();
          // The card that had the focus before may be gone: the keyboard goes back to the hand
          // (or to "Last trick", or to "More" where a narrow hand has folded it in there).
          if (!document.activeElement || document.activeElement === document.body) {
            const back = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('.hand .card.legal, .hand .card, #last-trick, #hand-more > summary')])
              .find((el) => el.checkVisibility());
            back?.focus({ preventScroll: true });
          }
        }
        return;
      }
      const inputs = [...sheetInputs(s), v.phase, v.winners, s.hostFlag];
      if (dialog.open && last && inputs.every((x, i) => x === /** @type {unknown[]} */ (last)[i])) return;
      last = inputs;
      replaceChildren(dialog, dialogBody(s, v, actions));
      dialog.setAttribute('aria-labelledby', 'dialog-title');
      if (!dialog.open) {
        dialog.showModal();
        // The button has the focus, but the headline ("★ Dido wins!") stays in view: on a
        // phone the dialog scrolls, and focusing would scroll it to the button at the bottom.
        /** @type {HTMLElement | null} */ (dialog.querySelector('#dialog-close'))?.focus({ preventScroll: true });
        dialog.scrollTop = 0;
      }
    },
  };
}
