// @ts-check
// Bridge's auction: the bidding box on a `call` prompt at a table whose contract is bid (levels
// 1 to 7 in each strain, Pass, Double, Redouble), the auction so far in four columns N E S W,
// the contract once made ("3NT by North (Ada), doubled"), the board and who is vulnerable, how
// calls read (on the felt, in the announcements, on the score sheet), and the calls typed in
// the table in words ("3nt", "1s", "p", "x", "xx").
//
// Owns: the bidding box's markup and keys, the auction table's, and the words of Bridge's
// calls. What may be called comes from the prompt alone (its `bid_from`, `double`, `redouble`,
// `pass`). May not touch: the state (clicks and keys go through the actions).

import { SUIT_SYMBOLS, suitName } from '../cards.js';
import { h } from '../dom.js';
import { t, tParts } from '../i18n/index.js';
import { nameInLine, seatLabel, seatName } from './names.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('../view-model.js').Contract} Contract */
/** @typedef {import('./actions.js').Actions} Actions */
/** @typedef {{ call: string, level?: number, strain?: string }} BridgeCall a call as sent and as told */

/** The strains, lowest first. */
export const STRAINS = ['C', 'D', 'H', 'S', 'NT'];

/** Whether the table's trump is bid for in an auction (Bridge). @param {TableState} s */
export function isAuctionTable(s) {
  return /** @type {string | undefined} */ (factsOf(s)?.trump) === 'contract';
}

/** Whether a bid of `level` in `strain` is at least `from`. @param {number} level @param {string} strain @param {{ level: number, strain: string } | undefined} from */
export function bidAtLeast(level, strain, from) {
  if (!from) return false;
  return level > from.level || (level === from.level && STRAINS.indexOf(strain) >= STRAINS.indexOf(from.strain));
}

/** Whether a `call` prompt allows `call`. @param {any} legal @param {BridgeCall} call */
export function bridgeCallAllowed(legal, call) {
  if (!legal || legal.type !== 'call') return false;
  if (call.call === 'pass') return Boolean(legal.pass);
  if (call.call === 'double') return Boolean(legal.double);
  if (call.call === 'redouble') return Boolean(legal.redouble);
  return call.call === 'bid' && bidAtLeast(call.level ?? 0, call.strain ?? '', legal.bid_from);
}

/** A strain's mark: its suit symbol, or the catalogue's "NT". @param {string} strain */
export function strainMark(strain) {
  return strain === 'NT' ? t('bridge.nt') : SUIT_SYMBOLS[strain];
}

/** A strain said in words: "hearts", "no trump". @param {string} strain */
export function strainName(strain) {
  return strain === 'NT' ? t('bridge.no_trump') : suitName(strain);
}

/** A bid as written: "3♥", "3NT". @param {{ level: number, strain: string }} bid */
export function bidShort(bid) {
  return `${bid.level}${strainMark(bid.strain)}`;
}

/** A bid said in words: "3 hearts", "3 no trump". @param {{ level: number, strain: string }} bid */
export function bidSpoken(bid) {
  return t('bridge.bid_spoken', { level: bid.level, strain: strainName(bid.strain) });
}

/**
 * A Bridge call in words, as said by its caller: "bids 3 hearts", "doubles", "passes"; null
 * for a call that is not Bridge's.
 * @param {BridgeCall} call @param {boolean} you the viewer made it
 */
export function bridgeCallText(call, you) {
  const p = you ? 'bridge.you.' : 'bridge.call.';
  if (call.call === 'bid') return t(`${p}bid`, { bid: bidSpoken({ level: call.level ?? 0, strain: call.strain ?? '' }) });
  if (call.call === 'double' || call.call === 'redouble') return t(`${p}${call.call}`);
  return null;
}

/** A call as the auction table writes it: "1♠", "Pass", "×", "××". @param {BridgeCall} call */
function callShort(call) {
  if (call.call === 'bid') return bidShort({ level: call.level ?? 0, strain: call.strain ?? '' });
  if (call.call === 'double') return '×';
  if (call.call === 'redouble') return '××';
  return t('bridge.pass_short');
}

/** Who is vulnerable, in words: "N–S vulnerable", "Neither side vulnerable". @param {string} vulnerability */
export function vulnerabilityText(vulnerability) {
  const key = { NorthSouth: 'ns', EastWest: 'ew', Both: 'both' }[vulnerability] ?? 'none';
  return t(`bridge.vul.${key}`);
}

/** Whether `seat` is vulnerable on the board. @param {string} vulnerability @param {number} seat */
export function isVulnerable(vulnerability, seat) {
  return vulnerability === 'Both' || (vulnerability === 'NorthSouth' && seat % 2 === 0) || (vulnerability === 'EastWest' && seat % 2 === 1);
}

/** "Board 3 · N–S vulnerable". @param {{ board: number, vulnerability: string }} bridge */
export function boardText(bridge) {
  return t('bridge.board_line', { board: bridge.board, vul: vulnerabilityText(bridge.vulnerability) });
}

/** "3NT by North (Ada), doubled". @param {TableState} s @param {Contract} contract */
export function contractText(s, contract) {
  return t(`bridge.contract.${contract.doubled}`, {
    bid: bidShort(contract.bid), seat: seatLabel(s, contract.declarer), name: seatName(s, contract.declarer),
  });
}

/** The contract's words with declarer's name as an element a phone may cut short (the head). @param {TableState} s @param {Contract} contract */
export function contractParts(s, contract) {
  return tParts(`bridge.contract.${contract.doubled}`, {
    bid: bidShort(contract.bid), seat: seatLabel(s, contract.declarer), name: nameInLine(seatName(s, contract.declarer)),
  });
}

/**
 * The auction so far in four columns, North first; the dealer's first call in the dealer's
 * column, and a "?" where the call to come goes while the auction lasts.
 * @param {TableState} s @param {PlayerView} v @param {boolean} compact a small table during play
 */
export function auctionTable(s, v, compact) {
  const calls = /** @type {any[]} */ (v.calling?.calls ?? []);
  /** @type {(HTMLElement | null)[]} */
  const cells = Array.from({ length: v.dealer }, () => h('td', { class: 'before' }));
  for (const c of calls) {
    cells.push(h('td', { 'data-seat': c.seat, 'data-call': c.call === 'bid' ? `${c.level}${c.strain}` : c.call, class: `call-${c.call}${c.strain ? ` suit-${c.strain}` : ''}` },
      h('span', { 'aria-hidden': 'true' }, callShort(c)),
      h('span', { class: 'sr-only' }, c.call === 'bid' ? bidSpoken(c) : c.call === 'pass' ? t('bridge.button.pass') : t(`bridge.button.${c.call}`))));
  }
  if (/** @type {string} */ (v.phase) === 'calling') cells.push(h('td', { class: 'next' }, '?'));
  const rows = [];
  for (let i = 0; i < cells.length; i += 4) rows.push(h('tr', {}, cells.slice(i, i + 4)));
  const vul = v.bridge?.vulnerability ?? '';
  return h('table', { class: `auction${compact ? ' compact' : ''}`, id: compact ? 'auction-small' : 'auction' },
    h('caption', { class: 'sr-only' }, t('bridge.auction')),
    h('thead', {}, h('tr', {}, [0, 1, 2, 3].map((seat) => h('th', {
      scope: 'col', class: isVulnerable(vul, seat) ? 'vulnerable' : null, title: seatName(s, seat), 'data-seat': seat,
    }, t(`bridge.compass.${seat}`))))),
    h('tbody', {}, rows));
}

/**
 * Keys in the bidding box: the arrows move along the grid (up and down a level, left and right
 * a strain, passing over bids too low), Home and End to the first and last button; Enter and
 * Space press them, as on any button.
 * @param {KeyboardEvent} e
 */
function boxKeys(e) {
  const all = /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll('#bidding-box button:not([disabled])')]);
  const here = /** @type {HTMLElement} */ (e.target);
  const i = all.indexOf(/** @type {HTMLButtonElement} */ (here));
  if (i < 0) return;
  /** @type {HTMLElement | undefined} */
  let next;
  if (e.key === 'ArrowRight') next = all[Math.min(all.length - 1, i + 1)];
  else if (e.key === 'ArrowLeft') next = all[Math.max(0, i - 1)];
  else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    // The same strain a level up or down, or the calls' row below the last level.
    const level = Number(here.dataset.level || 8) + (e.key === 'ArrowDown' ? 1 : -1);
    next = all.find((b) => Number(b.dataset.level || 8) === level && (!here.dataset.strain || b.dataset.strain === here.dataset.strain))
      ?? all.find((b) => Number(b.dataset.level || 8) === level);
  } else if (e.key === 'Home') next = all[0];
  else if (e.key === 'End') next = all[all.length - 1];
  else return;
  e.preventDefault();
  next?.focus();
}

/**
 * The bidding box for a `call` prompt at a Bridge table: every bid, those below `bid_from`
 * disabled; Pass, and Double and Redouble when the prompt allows them.
 * @param {TableState} s @param {PlayerView} v @param {Actions} actions
 */
export function biddingBox(s, v, actions) {
  const legal = /** @type {any} */ (v.legal);
  if (legal.type !== 'call' || !isAuctionTable(s)) return null;
  const rows = [];
  for (let level = 1; level <= 7; level += 1) {
    const open = STRAINS.some((strain) => bidAtLeast(level, strain, legal.bid_from));
    rows.push(h('div', { class: `bid-level${open ? '' : ' spent'}`, role: 'group', 'aria-label': t('bridge.level', { level }) },
      STRAINS.map((strain) => {
        const ok = bidAtLeast(level, strain, legal.bid_from);
        return h('button', {
          type: 'button',
          class: `bridge-bid suit-${strain}`,
          'data-level': level,
          'data-strain': strain,
          'data-focus': `bridge-bid-${level}${strain}`,
          'aria-label': bidSpoken({ level, strain }),
          disabled: !ok,
          onclick: () => actions.bridgeCall({ call: 'bid', level, strain }),
          onkeydown: boxKeys,
        }, h('span', { 'aria-hidden': 'true' }, bidShort({ level, strain })));
      })));
  }
  const other = (/** @type {string} */ call, /** @type {string} */ mark) => h('button', {
    type: 'button', class: `bridge-call call-${call}`, 'data-call': call, 'data-focus': `bridge-${call}`,
    onclick: () => actions.bridgeCall({ call }), onkeydown: boxKeys,
  }, mark ? h('span', { 'aria-hidden': 'true', class: 'mark' }, mark) : null, t(`bridge.button.${call}`));
  const calls = [other('pass', '')];
  if (legal.double) calls.push(other('double', '×'));
  if (legal.redouble) calls.push(other('redouble', '××'));
  return h('div', { class: 'bidding-box', id: 'bidding-box', role: 'group', 'aria-label': t('bridge.box_label') },
    h('div', { class: 'bid-levels' }, rows),
    h('div', { class: 'bid-calls' }, calls));
}

/** Moves the focus into the bidding box: its lowest bid allowed, else Pass. */
export function focusBiddingBox() {
  /** @type {HTMLElement | null} */ (document.querySelector('#bidding-box .bridge-bid:not([disabled]), #bidding-box .bridge-call'))?.focus({ preventScroll: true });
}

/** The typed words of `key` in the page's language and in English. @param {string} key @param {string[]} english */
function typed(key, english) {
  return [...t(key).split('|'), ...english].map((w) => w.toLocaleLowerCase());
}

/**
 * The Bridge call a typed line names ("3nt", "1 s", "2♥", "p", "pass", "x", "xx"), or null.
 * @param {string} said lower case, single spaces
 * @returns {BridgeCall | null}
 */
export function typedBridgeCall(said) {
  if (typed('cmd.bridge_pass', ['pass', 'p']).includes(said)) return { call: 'pass' };
  if (typed('cmd.bridge_double', ['double', 'x', 'dbl']).includes(said)) return { call: 'double' };
  if (typed('cmd.bridge_redouble', ['redouble', 'xx', 'rdbl']).includes(said)) return { call: 'redouble' };
  const m = /^([1-7])\s*(.+)$/.exec(said);
  if (!m) return null;
  const rest = m[2].trim();
  const strain = STRAINS.find((st) => [
    st.toLowerCase(), strainMark(st).toLocaleLowerCase(), strainName(st).toLocaleLowerCase(),
    ...(st === 'NT' ? ['no trump', 'n', 'nt', 'notrump'] : [['clubs', 'diamonds', 'hearts', 'spades'][STRAINS.indexOf(st)]]),
  ].includes(rest));
  return strain ? { call: 'bid', level: Number(m[1]), strain } : null;
}

/**
 * A Bridge call typed in the table in words, when one is asked for. Returns the words to read
 * ("" when the call was sent), or null when the line is not a call.
 * @param {string} said @param {TableState} s @param {Actions} actions
 * @returns {string | null}
 */
export function bridgeCommand(said, s, actions) {
  const legal = /** @type {any} */ (s.view?.legal);
  if (!legal || legal.type !== 'call' || s.role !== 'player') return null;
  const call = typedBridgeCall(said);
  if (!call) return null;
  if (!bridgeCallAllowed(legal, call)) return t('call.not_allowed', { call: bridgeCallText(call, true) ?? t('call.you.pass') });
  actions.bridgeCall(call);
  return '';
}
