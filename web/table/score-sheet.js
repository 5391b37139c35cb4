// @ts-check
// The score sheet: a line per finished hand with each column's points and total (and where
// players bid, the bids against the tricks, nil bids made or failed, bags and what they cost),
// the totals, and a line on how the game is scored. Shown beside the table and in the
// end-of-hand dialog.
//
// Owns: the sheet's markup. Columns are partnerships or seats, and two totals (prize and
// penalty) or one, as the variant's facts say; the bidding lines show when a score line has
// them. May not touch: the state.

import { suitLabel } from '../cards.js';
import { t } from '../i18n/index.js';
import { scoringText } from './howto.js';
import { h, replaceChildren } from '../dom.js';
import { downloadsBox } from './downloads.js';
import { boardText, contractText } from './auction.js';
import { bidText } from './bid.js';
import { minus, seatName, signed, teamName } from './names.js';
import { part } from './part.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('../view-model.js').VariantFacts} VariantFacts */

/** The sheet's columns: one per partnership, or one per seat. @param {TableState} s @param {PlayerView} v */
function columns(s, v) {
  if (factsOf(s)?.partnerships) return [0, 1].map((t) => ({ label: teamName(s, t), seat: t }));
  return Array.from({ length: v.players }, (_, seat) => ({ label: seatName(s, seat), seat }));
}

/**
 * What a score line says of a column's bids: "bid 3 · took 3" (a partnership: "bid 4 + Nil ·
 * took 5"), or with many columns just "3/3" (taken / bid); then each nil bid made or failed,
 * the bags after the hand and what they cost.
 * @param {TableState} s @param {PlayerView} v @param {import('../view-model.js').HandResult} r
 * @param {{ seat: number }} c @param {boolean} teams @param {boolean} short
 */
function bidLines(s, v, r, c, teams, short) {
  if (!r.bids) return null;
  const bids = /** @type {number[]} */ (r.bids);
  const seats = teams ? [c.seat, c.seat + 2] : [c.seat];
  const took = seats.reduce((sum, seat) => sum + r.tricks[seat], 0);
  const blind = (/** @type {number} */ seat) => r.blind_nil?.includes(seat) ?? false;
  const bid = seats.map((seat) => (blind(seat) ? t('bid.blind_nil') : bidText(v, bids[seat]))).join(' + ');
  const out = [h('span', { class: 'bid-line', 'data-bid': seats.map((seat) => bids[seat]).join('+'), 'data-took': took },
    short ? [h('span', { 'aria-hidden': 'true' }, `${took}/${bid}`), h('span', { class: 'sr-only' }, t('sheet.bid_took_spoken', { bid, took }))]
      : t('sheet.bid_took', { bid, took }))];
  for (const seat of seats) {
    const nil = r.nil?.[seat];
    if (nil === true || nil === false) {
      const blindNil = blind(seat);
      const words = t(blindNil ? (nil ? 'sheet.blind_nil_made' : 'sheet.blind_nil_failed') : nil ? 'sheet.nil_made' : 'sheet.nil_failed');
      out.push(h('span', { class: `nil-line ${nil ? 'made' : 'failed'}`, 'data-nil': String(nil), 'data-blind': blindNil ? 'true' : null },
        teams ? `${seatName(s, seat)}: ${words}` : words));
    }
  }
  if (r.bags) out.push(h('span', { class: 'bags-line', 'data-bags': r.bags[c.seat] }, t('sheet.bags', { n: r.bags[c.seat] })));
  const cost = r.bag_penalty?.[c.seat];
  if (cost) out.push(h('span', { class: 'bags-line penalty', 'data-bag-penalty': cost }, t('sheet.bags_cost', { cost: minus(cost) })));
  return out;
}

/**
 * What a Euchre score line says in a partnership's column: for the makers, who made trump in
 * which suit (alone or not), their tricks, and whether they were euchred or took all five (a
 * march); for the defenders, a lone defence; for both, a hand nobody called, thrown in.
 * @param {TableState} s @param {import('../view-model.js').HandResult} r @param {{ seat: number }} c
 */
function callLine(s, r, c) {
  if (factsOf(s)?.trump !== 'called') return null;
  const made = /** @type {any} */ (r).trump_made;
  if (!made) return h('span', { class: 'call-line thrown-in', 'data-thrown-in': 'true' }, t('sheet.thrown_in'));
  const side = (/** @type {number} */ seat) => seat % 2;
  if (side(made.maker) !== side(c.seat)) {
    return made.defender_alone !== undefined && made.defender_alone !== null && side(made.defender_alone) === side(c.seat)
      ? h('span', { class: 'call-line', 'data-defended-alone': 'true' }, t('sheet.defended_alone', { name: seatName(s, made.defender_alone) }))
      : null;
  }
  const took = r.tricks[c.seat] + r.tricks[(c.seat + 2) % r.tricks.length];
  const all = r.tricks.reduce((a, b) => a + b, 0);
  const outcome = took < 3 ? 'euchred' : took === all ? 'march' : 'made';
  return [
    h('span', { class: 'call-line', 'data-maker': made.maker, 'data-trump': made.trump, 'data-alone': String(made.alone) },
      t(made.alone ? 'sheet.made_alone' : 'sheet.made', { name: seatName(s, made.maker), suit: suitLabel(made.trump) })),
    h('span', { class: `call-line outcome ${outcome}`, 'data-outcome': outcome }, t(`sheet.outcome.${outcome}`, { count: took })),
  ];
}

/**
 * What a Bridge score line says in a partnership's column: for declarer's side, the contract
 * and declarer, the tricks taken and how it ended (made, with overtricks, or down); for both,
 * a board passed out.
 * @param {TableState} s @param {import('../view-model.js').HandResult} r @param {{ seat: number }} c
 */
function boardLine(s, r, c) {
  const board = /** @type {any} */ (r).board;
  if (!board) return null;
  const contract = board.contract;
  if (!contract) return h('span', { class: 'call-line passed-out', 'data-passed-out': 'true' }, t('bridge.sheet.passed_out'));
  if (contract.declarer % 2 !== c.seat % 2) return null;
  const took = board.declarer_tricks;
  const over = took - (contract.bid.level + 6);
  const outcome = over < 0 ? t('bridge.sheet.down', { count: -over }) : over > 0 ? t('bridge.sheet.over', { count: over }) : t('bridge.sheet.made');
  return [
    h('span', { class: 'call-line contract-line', 'data-contract': `${contract.bid.level}${contract.bid.strain}`, 'data-declarer': contract.declarer, 'data-doubled': contract.doubled },
      contractText(s, contract)),
    h('span', { class: `call-line outcome ${over < 0 ? 'down' : 'made'}`, 'data-tricks': took, 'data-over': over },
      t('bridge.sheet.tricks', { count: took, outcome })),
  ];
}

/** The board a score line was played on, under its hand number: "Board 3 · N–S vulnerable". @param {import('../view-model.js').HandResult} r */
function boardHead(r) {
  const board = /** @type {any} */ (r).board;
  return board ? h('span', { class: 'board-no', 'data-board': board.board }, boardText(board)) : null;
}

/** More columns than this and a line's bids read "3/3" (taken / bid), to fit. */
const WIDE_COLUMNS = 4;

/** How the game is scored and when the match ends, for people. @param {VariantFacts | null} facts @param {PlayerView} v */
function ruleLine(facts, v) {
  if (!facts) return '';
  const { hands, target } = /** @type {{ hands?: number, target?: number }} */ (v.options);
  const end = hands !== undefined ? ` ${t('sheet.lasts', { count: hands })}`
    : target !== undefined ? ` ${t('sheet.ends_at', { count: target })}` : '';
  return `${scoringText(v.variant, facts)}${end}`;
}

/** The score sheet; `where` tells the side one from the dialog's. @param {TableState} s @param {string} where */
export function scoreSheet(s, where) {
  return fillScoreSheet(h('section', {}), s, where);
}

/** Draws the score sheet into the section `el`. @param {HTMLElement} el @param {TableState} s @param {string} where */
function fillScoreSheet(el, s, where) {
  const v = /** @type {PlayerView} */ (s.view);
  const cols = columns(s, v);
  const two = Boolean(factsOf(s)?.two_totals);
  const teams = Boolean(factsOf(s)?.partnerships);
  const short = cols.length > WIDE_COLUMNS;
  const rows = v.history.map((r) => h('tr', { class: 'hand-row', 'data-hand': r.hand },
    h('th', { scope: 'row' }, t('head.hand', { n: r.hand + 1 }), boardHead(r), r.moon !== null && r.moon !== undefined ? h('span', { class: 'moon' }, t('sheet.moon', { name: seatName(s, r.moon) })) : null),
    cols.map((c) => h('td', { 'data-seat': c.seat, 'data-points': r.points[c.seat], 'data-total': r.totals[c.seat] },
      h('span', { class: 'pts' }, two ? `+${r.points[c.seat]}` : signed(r.points[c.seat])),
      two ? h('span', { class: 'pen' }, minus(r.penalties[c.seat])) : null,
      bidLines(s, v, r, c, teams, short),
      callLine(s, r, c),
      boardLine(s, r, c),
      h('span', { class: 'tot' }, t('sheet.total', { total: `${two ? '+' : ''}${r.totals[c.seat]}` }))))));
  // Bags carry from hand to hand: the count after the last hand stands under the totals.
  const lastBags = v.history[v.history.length - 1]?.bags;
  const totals = h('tr', { class: 'totals-row' }, h('th', { scope: 'row' }, t('sheet.totals')),
    cols.map((c) => h('td', { 'data-seat': c.seat },
      two ? [h('span', { class: 'pts' }, `+${v.totals[c.seat]}`), h('span', { class: 'pen' }, minus(v.negatives[c.seat]))]
        : String(v.totals[c.seat]),
      lastBags ? h('span', { class: 'bags-line', 'data-bags': lastBags[c.seat] }, t('sheet.bags', { n: lastBags[c.seat] })) : null)));
  const rule = ruleLine(factsOf(s), v);
  el.className = `score-sheet ${where}`;
  el.setAttribute('aria-label', t('hand.score_sheet'));
  replaceChildren(el,
    h('h2', {}, t('hand.score_sheet')),
    h('div', { class: 'sheet-scroll' },
      h('table', {},
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('sheet.hand_col')), cols.map((c) => h('th', { scope: 'col' }, c.label)))),
        h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: cols.length + 1, class: 'hint' }, t('sheet.none'))), totals))),
    short && v.history.some((r) => r.bids) ? h('p', { class: 'hint', id: 'bid-legend' }, t('sheet.legend')) : null,
    rule ? h('p', { class: 'hint' }, rule) : null,
    downloadsBox(s, v.history, where));
  return el;
}

/** What a score sheet shows, to tell when it must be drawn again. @param {TableState} s */
export function sheetInputs(s) {
  const v = s.view;
  return [v?.history, v?.totals, v?.negatives, v?.players, v?.options, s.table, s.role, s.seat, s.variants, s.hands];
}

/** The score sheet beside the table. */
export function sideSheetPart() {
  return part(h('section', {}), sheetInputs, (el, s) => fillScoreSheet(el, s, 'side'));
}
