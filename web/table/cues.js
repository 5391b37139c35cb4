// @ts-check
// "Your turn" for someone looking elsewhere: when the player's turn comes while the page is in
// the background, a short chime (unless sound is off) and a tab icon with a gold dot; the tab's
// title says it too (layout.js writes the title).
//
// Owns: noticing the turn begin, the chime's call and the tab icon. May not touch: the state.

import { chime } from '../sound.js';

/** @typedef {import('./state.js').TableState} TableState */

const ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'%3E%3Ctext y='.9em' font-size='90'%3E%E2%99%A0%3C/text%3E%3C/svg%3E";
const TURN_ICON = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'%3E%3Ctext y='.9em' font-size='90'%3E%E2%99%A0%3C/text%3E%3Ccircle cx='76' cy='24' r='22' fill='%23f2c14e' stroke='%231d6f42' stroke-width='6'/%3E%3C/svg%3E";

/** Whether the state asks the player for a move. @param {TableState} s */
export function myTurn(s) {
  return s.role === 'player' && Boolean(s.view) && /** @type {any} */ (s.view).legal.type !== 'wait';
}

/** A listener for the store that gives the cues. */
export function turnCues() {
  let was = false;
  /** @param {boolean} on */
  const icon = (on) => {
    const link = /** @type {HTMLLinkElement | null} */ (document.querySelector('link[rel="icon"]'));
    if (link && link.dataset.turn !== String(on)) {
      link.href = on ? TURN_ICON : ICON;
      link.dataset.turn = String(on);
    }
  };
  /** @type {TableState | null} */
  let last = null;
  document.addEventListener('visibilitychange', () => {
    if (last) icon(document.hidden && myTurn(last));
  });
  /** @param {TableState} s */
  return (s) => {
    last = s;
    const now = myTurn(s);
    if (now && !was && document.hidden && s.sound) chime();
    was = now;
    icon(document.hidden && now);
  };
}
