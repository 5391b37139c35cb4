// @ts-check
// The turn clock and the computer standing in: at a table with a turn clock, the last minute
// left for the move asked of you counts down beside "Your turn" (and is said once when ten
// seconds are left); when a computer starts playing your seat, it is said plainly, with how to take the
// seat back.
//
// Owns: the text of `#turn-clock` (drawn by the felt's middle) and its timer. May not touch:
// the state.

import { t } from '../i18n/index.js';
import { seatInfo } from './names.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./announcer.js').Announcer} Announcer */

/** Seconds left when the clock is said aloud. */
const WARN_AT = 10;

/** Seconds left from which the clock shows: as it runs out, not through a long think. */
const SHOW_AT = 60;

/** "1:05", "0:09". @param {number} seconds */
export function clockText(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The listener keeping the clock and saying when a computer plays for you. @param {Announcer} announcer */
export function turnClock(announcer) {
  /** @type {TableState | null} */
  let state = null;
  let warned = /** @type {number | null} */ (null);
  let standing = false;
  const tick = () => {
    const el = document.getElementById('turn-clock');
    const s = state;
    const deadline = s && s.role === 'player' && s.view && s.view.legal.type !== 'wait' ? s.turnDeadline : null;
    if (!el) return;
    if (deadline === null) {
      el.hidden = true;
      return;
    }
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    el.hidden = left > SHOW_AT;
    el.textContent = t('clock.left', { time: clockText(left) });
    el.classList.toggle('low', left <= WARN_AT);
    if (left <= WARN_AT && warned !== deadline) {
      warned = deadline;
      announcer.say(t('clock.warn', { count: left }));
    }
  };
  setInterval(tick, 250);
  return (/** @type {TableState} */ s) => {
    state = s;
    tick();
    const mine = s.role === 'player' && s.seat !== null ? seatInfo(s, s.seat) : null;
    const now = Boolean(mine?.bot_playing) && s.table?.status === 'playing';
    if (now && !standing) announcer.say(t('turn.computer_plays'));
    standing = now;
  };
}
