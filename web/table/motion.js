// @ts-check
// The table in motion: a card played flies from its player to the table, and a finished trick
// stays a moment (so a trick a computer takes and leads from at once can be followed), then
// slides to the seat that took it. With `prefers-reduced-motion` nothing moves; the finished
// trick still stays its moment.
//
// Owns: the animations (Web Animations on the trick's cards) and `trickHold`, the finished trick
// kept on the table. May not touch: the rest of the state or the game.

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./state.js').FinishedTrick} FinishedTrick */

import { completedPlays } from '../view-model.js';

/** How long a finished trick stays before it slides away (ms). */
const HOLD_MS = 1600;
/** How long a card takes to reach the table, and a trick its taker (ms). */
const FLY_MS = 260;
const SLIDE_MS = 380;

/** Whether the person asked for less motion. */
export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The middle of an element's box. @param {Element} el */
function middle(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/**
 * Where the card of `seat` comes from: the hand for the viewer's own card, else the seat's plate.
 * @param {number} seat @param {boolean} mine
 */
function origin(seat, mine) {
  return (mine && document.querySelector('.hand-area')) || document.querySelector(`.plate[data-seat="${seat}"]`);
}

/**
 * Flies the cards new on the table from their players. `before` holds the "seat:card" keys
 * shown before the trick was drawn again.
 * @param {HTMLElement} trickEl @param {Set<string>} before @param {number | null} mySeat
 */
export function flyIn(trickEl, before, mySeat) {
  if (reducedMotion() || trickEl.classList.contains('done')) return;
  const fresh = [...trickEl.querySelectorAll('.played')].filter((p) => {
    const played = /** @type {HTMLElement} */ (p);
    return !before.has(`${played.dataset.seat}:${played.dataset.card}`);
  });
  if (!fresh.length) return;
  // Measured just before the frame is drawn, once the rest of the page (the hand) has changed
  // too: measuring now would lay the page out twice for one tap.
  requestAnimationFrame(() => {
    for (const p of fresh) {
      const played = /** @type {HTMLElement} */ (p);
      const from = origin(Number(played.dataset.seat), Number(played.dataset.seat) === mySeat);
      const card = played.querySelector('.card');
      if (!from || !card || !card.isConnected) continue;
      const a = middle(from);
      const b = middle(card);
      card.animate([
        { transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(0.8)`, opacity: 0.6 },
        { transform: 'none', opacity: 1 },
      ], { duration: FLY_MS, easing: 'ease-out', id: 'card-to-table' });
    }
  });
}

/** Slides the finished trick on the table to its taker's plate. @param {number} winner @returns {Promise<void>} */
function slideToWinner(winner) {
  const plate = document.querySelector(`.plate[data-seat="${winner}"]`);
  const cards = [...document.querySelectorAll('.trick.done .card')];
  if (reducedMotion() || !plate || !cards.length) return Promise.resolve();
  const to = middle(plate);
  const runs = cards.map((card) => {
    const from = middle(card);
    return card.animate([
      { transform: 'none', opacity: 1 },
      { transform: `translate(${to.x - from.x}px, ${to.y - from.y}px) scale(0.5)`, opacity: 0 },
    ], { duration: SLIDE_MS, easing: 'ease-in', fill: 'forwards', id: 'trick-to-winner' }).finished;
  });
  return Promise.all(runs).then(() => {}, () => {});
}

/**
 * Keeps every just-finished trick on the table for a moment, then slides it away; the last
 * trick of a hand too, for a moment after the score sheet is closed, and it stays the one
 * "Last trick" shows after the next hand is dealt. The hold ends early when the player plays to the next trick
 * (they have seen it) or asks for the last trick.
 * @param {Store} store
 */
export function trickHolder(store) {
  let known = -1;
  let hand = -1;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  /** The trick whose moment ran out under the score sheet: it stays its moment once the sheet closes. */
  let waiting = /** @type {FinishedTrick | null} */ (null);
  /** @param {FinishedTrick} held */
  const later = (held) => setTimeout(() => {
    timer = null;
    if (store.state.trickHold !== held) return;
    if (store.state.dialogOpenFor !== null) {
      waiting = held;
      return;
    }
    slideToWinner(held.winner).then(() => {
      if (store.state.trickHold === held) store.set({ trickHold: null });
    });
  }, HOLD_MS);
  const release = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (store.state.trickHold !== null) store.set({ trickHold: null });
  };
  /** @param {TableState} s */
  return (s) => {
    const v = s.view;
    if (!v) return;
    const count = v.tricks.length;
    const fresh = v.hand_number === hand && count === known + 1 && known >= 0;
    known = count;
    hand = v.hand_number;
    if (fresh) {
      if (timer) clearTimeout(timer);
      const last = v.tricks[count - 1];
      /** @type {FinishedTrick} */
      const held = { plays: completedPlays(last, v.players, v.calling?.out), winner: last.winner };
      store.set({ trickHold: held, lastTrick: held });
      waiting = null;
      timer = later(held);
      return;
    }
    if (waiting && s.dialogOpenFor === null) {
      if (s.trickHold === waiting) timer = later(waiting);
      waiting = null;
    }
    const mine = s.role === 'player' && v.trick.plays.some((p) => p.seat === s.seat);
    if (s.trickHold !== null && (mine || s.showLast)) release();
  };
}
