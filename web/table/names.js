// @ts-check
// What seats and people are called on the page, and where each seat sits around the felt.
//
// Owns: seat names (yours, computer players', partnership seats), bot strengths in words,
// seat positions, small number formats. May not touch: the page or the state (it only reads;
// it makes a name's element, never places it).

import { h } from '../dom.js';
import { listText, t } from '../i18n/index.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */

/** Where each seat sits around the felt, clockwise from the viewer at the bottom. */
const POSITIONS = {
  3: ['bottom', 'left', 'right'],
  4: ['bottom', 'left', 'top', 'right'],
  5: ['bottom', 'left', 'top-left', 'top-right', 'right'],
  6: ['bottom', 'left', 'top-left', 'top', 'top-right', 'right'],
  7: ['bottom', 'bottom-left', 'left', 'top-left', 'top-right', 'right', 'bottom-right'],
};

/** The compass seats of a partnership game: seats 0 and 2 against 1 and 3 (words `seat.compass.N`). */
const COMPASS = ['north', 'east', 'south', 'west'];

/** A partnership's name, by `seat % 2`: "North–South". @param {number} team */
export function teamLabel(team) {
  return t(`team.${team % 2}`);
}

/** The built-in strategies the catalogue names. */
const STRATEGIES = ['random', 'heuristic', 'strong', 'uva181'];

/** A built-in strategy in words ("Good"), or its wire name. @param {string} name */
export function strategyText(name) {
  return STRATEGIES.includes(name) ? t(`strategy.${name}`) : name;
}

/** Friendly names for computer players, by seat. */
const BOT_NAMES = ['Ada', 'Bert', 'Cleo', 'Dido', 'Emil', 'Flora', 'Gideon'];

/** Where passed cards go, in words: "left". @param {string} direction */
export function directionText(direction) {
  return t(`direction.${direction}`);
}

/** Whether the variant plays in partnerships (North–South against East–West). @param {TableState} s */
export function partnerships(s) {
  return Boolean(factsOf(s)?.partnerships);
}

/** The seat list entry of `seat`. @param {TableState} s @param {number} seat */
export function seatInfo(s, seat) {
  return s.table?.seats.find((/** @type {any} */ x) => x.seat === seat) || null;
}

/** Whether the viewer plays in `seat`. @param {TableState} s @param {number} seat */
export function isMe(s, seat) {
  return s.role === 'player' && seat === s.seat;
}

/** Seats at the table. @param {TableState} s */
export function players(s) {
  return s.view?.players || s.table?.seats.length || 4;
}

/** The seat's plain label: "Seat 2", or "East" in a partnership game. @param {TableState} s @param {number} seat */
export function seatLabel(s, seat) {
  return partnerships(s) ? t(`seat.compass.${COMPASS[seat]}`) : t('seat.number', { n: seat + 1 });
}

/** What a seat is called at the table: "You", a computer's name, a person's name. @param {TableState} s @param {number} seat */
export function seatName(s, seat) {
  if (isMe(s, seat)) return t('seat.you');
  const info = seatInfo(s, seat);
  if (info?.occupant === 'bot') return BOT_NAMES[seat] || t('seat.computer_n', { n: seat + 1 });
  if (info?.name) return info.name;
  return seatLabel(s, seat);
}

/**
 * A person's name inside a line of words, which a small screen may cut short (it says itself
 * whole in its title); the words around it are never cut. @param {string} name
 */
export function nameInLine(name) {
  return h('span', { class: 'name-in-line', title: name }, name);
}

/** A partnership's name with its people: "North–South (Ann & Cleo)". @param {TableState} s @param {number} team */
export function teamName(s, team) {
  return t('team.with', { team: teamLabel(team), a: seatName(s, team), b: seatName(s, team + 2) });
}

/**
 * How strong a built-in bot is, in words ("good"), from the seat's `strategy`; "" when the
 * server does not say.
 * @param {any} info a SeatInfo
 */
export function botStrength(info) {
  const name = info?.strategy;
  if (typeof name !== 'string' || !name) return '';
  return strategyText(name).toLocaleLowerCase(document.documentElement.lang);
}

/** Who sits in a seat, for the seat lists. @param {any} seat a SeatInfo */
export function occupantText(seat) {
  if (seat.occupant === 'empty') return seat.bot_playing ? t('seat.empty_bot') : t('seat.empty');
  if (seat.occupant === 'bot') {
    const strength = botStrength(seat);
    const name = BOT_NAMES[seat.seat] || t('seat.computer');
    return strength ? t('seat.bot_strength', { name, strength }) : t('seat.bot', { name });
  }
  const name = seat.name || (seat.occupant === 'human' ? t('seat.a_player') : t('seat.a_bot'));
  if (seat.occupant === 'remote_bot') return t('seat.program', { name });
  if (seat.occupant === 'human' && !seat.connected) return t('seat.away', { name });
  return name;
}

/** Whether the viewer hosts the table (may add bots and start). @param {TableState} s */
export function isHost(s) {
  if (s.role !== 'player') return false;
  if (s.table && s.table.host !== null && s.table.host !== undefined) return s.table.host === s.seat;
  return Boolean(s.hostFlag);
}

/** Where `seat` sits around the felt, the viewer at the bottom. @param {TableState} s @param {number} seat */
export function position(s, seat) {
  const n = players(s);
  const base = s.role === 'player' && s.seat !== null ? s.seat : 0;
  const ring = POSITIONS[/** @type {3 | 4 | 5 | 6 | 7} */ (n)] || POSITIONS[4];
  return ring[(seat - base + n) % n];
}

/** The seats a name list of winners reads as: "Ann and Bert win!", "You win!". @param {TableState} s @param {number[]} seats */
export function winnersText(s, seats) {
  if (seats.length === 1 && isMe(s, seats[0])) return t('winners.you');
  return t('winners', { names: listText(seats.map((seat) => seatName(s, seat))), count: seats.length });
}

/** "1 card", "3 cards": `count.<word>` in the language, with its plural form. @param {number} n @param {string} word */
export function plural(n, word) {
  return t(`count.${word}`, { count: n });
}

/** A number with a real minus sign. @param {number} x */
export function minus(x) {
  return x < 0 ? `−${-x}` : String(x);
}

/** A number with its sign: "+3", "-2", "0". @param {number} x */
export function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}
