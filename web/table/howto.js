// @ts-check
// "How to play": a short explanation of the table's game for a family, from docs/RULES.md,
// opened from a button in the top bar.
//
// Owns: the words per variant, the button and the page's <dialog id="howto-dialog">. Every
// number in the words comes from the `/api/variants` entry (its facts and option defaults) or
// the table's own options, never typed here, so the text cannot drift from the rules. May not
// touch: the state.

import { cardName } from '../cards.js';
import { h, replaceChildren } from '../dom.js';
import { variantTitle } from '../lobby.js';
import { variantEntry } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */

/**
 * What the words need: the variant's entry, and one option's value at this table with the
 * rules' default beside it.
 * @typedef {{ entry: any, facts: any, value: (name: string) => any, usual: (name: string) => any }} Rules
 */

/** "to 30 points (the usual match is 100)", or just "to 100 points". @param {Rules} r @param {string} name @param {string} unit */
function withUsual(r, name, unit) {
  const value = r.value(name);
  const usual = r.usual(name);
  return value === usual ? `${value} ${unit}` : `${value} ${unit} (the usual match is ${usual})`;
}

/** The points of the cards that count, highest first, as "queen of spades 13". @param {Record<string, number>} points */
function pointsList(points) {
  return Object.entries(points)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([card, p]) => `${cardName(card)} ${p}`);
}

/** @type {Record<string, (r: Rules) => string[]>} */
const WORDS = {
  hearts: (r) => [
    'Try not to take points.',
    r.value('passing')
      ? `Before each hand, everyone chooses ${r.facts.pass_count} cards to pass: to the left, then to the right, then across, then no passing; and again.`
      : 'There is no passing at this table.',
    'Whoever holds the two of clubs leads it. Follow the suit that was led if you can; if you cannot, play any card. The highest card of the suit led wins the trick.',
    'No hearts and no queen of spades on the first trick (unless you hold nothing else). Hearts may not be led until one has been played.',
    `Each heart you take is ${r.facts.card_points['2H']} point and the queen of spades ${r.facts.card_points.QS}. Take them all ("shoot the moon") and ${
      r.value('moon') === 'subtract' ? 'your own total goes down instead' : 'everyone else takes them instead'}.`,
    `The match ends when someone reaches ${withUsual(r, 'target', 'points')}; the lowest total wins.`,
  ],
  filippa: (r) => [
    'Hearts with a prize: take no penalty card and share the prize.',
    `Each hand, everyone passes ${r.facts.pass_count} cards to the left.`,
    'The player left of the dealer leads. Follow suit if you can; there are no trumps.',
    `Penalty cards: ${pointsList(r.facts.card_points).filter((t) => !/ -1$/.test(t)).join(', ')}, and every other heart ${r.facts.card_points['2H']}.`,
    `Each hand puts ${r.facts.prize} points in the prize pool. Players who took no penalty card share it; if everyone took one, it waits for the next hand.`,
    `The match ends when someone has won ${withUsual(r, 'target', 'prize points')}; the most prize points wins.`,
  ],
  hearts5: (r) => [
    `Five players, ${r.facts.hand_size} cards each, and no passing. The two cards left over are shown: the suit of the higher one is trump.`,
    'Follow suit if you can; if you cannot, you must play a trump if you have one.',
    `Try not to take hearts: each scores its face value, from ${r.facts.card_points['2H']} for the two to ${r.facts.card_points.AH} for the ace.`,
    `The match lasts ${withUsual(r, 'hands', 'hands')}; the lowest total wins.`,
  ],
  tricks: (r) => [
    'Win as many tricks as you can: each trick is a point.',
    'Follow suit if you can; there are no trumps and no passing. The highest card of the suit led wins.',
    r.value('bad_card') === 'penalty'
      ? `Careful: a card you may not play costs ${r.facts.bad_card_penalty} points and the hand is dealt again.`
      : 'A card you may not play is refused: just choose another.',
    `The first to ${withUsual(r, 'target', 'points')} wins.`,
  ],
  whist: () => [
    'Partners sit opposite each other: North and South play against East and West.',
    'The dealer’s last card is shown to everyone: its suit is trump.',
    'Follow suit if you can; if you cannot, play a trump or any other card. The highest trump wins, or else the highest card of the suit led.',
    'After each hand, the side that took more tricks scores a point for every trick over six.',
  ],
  spades: (r) => [
    'Partners sit opposite each other: North and South play against East and West.',
    `Everyone holds ${r.facts.hand_size} cards. Before playing, each player in turn from the dealer’s left bids how many tricks they expect to take; partners add their bids together.`,
    r.value('nil')
      ? 'A bid of nil means you will take no trick at all: it wins a bonus if you manage it and costs as much if you do not, whatever your partner does.'
      : 'There are no nil bids at this table: every bid is at least one trick.',
    `Spades are always trump. Follow suit if you can; if you cannot, play a spade or any other card.${
      r.value('spades_broken') ? ' Spades may not be led until one has been played, unless you hold nothing else.' : ''}`,
    ...(r.value('jokers')
      ? ['The big and the little joker replace the 2♣ and the 2♦. They are the two highest spades, above the ace (the big joker highest), and count as spades in every way.']
      : []),
    r.facts.scoring,
    r.value('bag_limit') > 0
      ? `Tricks over the bid are bags: every ${r.value('bag_limit')} bags a side collects cost ${r.value('bag_penalty')} points.`
      : 'Bags (tricks over the bid) cost nothing at this table.',
    `The first side to ${withUsual(r, 'target', 'points')} wins${
      r.value('mercy') > 0 ? `; a side at minus ${r.value('mercy')} or below loses` : ''}.`,
  ],
  ohhell: (r) => [
    `${r.value('players')} players, each for themselves.`,
    `Hands change size: ${SCHEDULE_WORDS[r.value('schedule')] || r.value('schedule')}. The hand’s size is shown at the top.`,
    'After the deal the next card is turned face up for everyone: its suit is trump for the hand.',
    `Each player in turn from the dealer’s left bids exactly how many tricks they will take.${
      r.value('hook') ? ' The dealer bids last and may not make the bids add up to the tricks in the hand, so somebody must miss.' : ''}`,
    'Follow suit if you can; if you cannot, play a trump or any other card. The highest trump wins, or else the highest card of the suit led.',
    SCORING_WORDS[r.value('scoring')] || r.facts.scoring,
  ],
};

/** Oh Hell's `schedule` in words. @type {Record<string, string>} */
const SCHEDULE_WORDS = {
  down_up: 'the first hand is as large as the deck allows, each next one has a card fewer down to a single card, then back up again',
  down: 'the first hand is as large as the deck allows, each next one has a card fewer, down to a single card',
  up: 'the first hand is a single card, each next one has a card more, up to as many as the deck allows',
  up_down: 'the first hand is a single card, each next one has a card more up to as many as the deck allows, then back down',
};

/** Oh Hell's `scoring` in words (the standard one is the variant's own `scoring` fact). @type {Record<string, string>} */
const SCORING_WORDS = {
  minus_difference: 'An exact bid scores 10 plus the bid; a missed bid loses the difference between the bid and the tricks taken. The highest total after the last hand wins.',
  tricks_plus_ten: 'Every trick taken is a point, and an exact bid scores 10 more. The highest total after the last hand wins.',
};

/** The last line for whist, which needs the target. @param {Rules} r */
function whistEnd(r) {
  return `The first side to ${withUsual(r, 'target', 'points')} wins.`;
}

/**
 * The lines explaining the table's game, or null while the variant's entry is not loaded.
 * @param {TableState} s
 * @returns {string[] | null}
 */
export function howToPlay(s) {
  const entry = variantEntry(s);
  const words = entry && WORDS[entry.name];
  if (!entry || !words) return null;
  const usual = (/** @type {string} */ name) => entry.options.find((/** @type {any} */ o) => o.name === name)?.default;
  const options = s.view?.options || s.table?.options || {};
  /** @type {Rules} */
  const r = { entry, facts: entry.facts, usual, value: (name) => options[name] ?? usual(name) };
  const lines = words(r);
  return entry.name === 'whist' ? [...lines, whistEnd(r)] : lines;
}

/** The listener that keeps the button in the top bar and fills the dialog when opened. */
export function howToButton() {
  let state = /** @type {TableState | null} */ (null);
  const dialog = /** @type {HTMLDialogElement} */ (h('dialog', { id: 'howto-dialog', class: 'score-dialog howto-dialog', 'aria-labelledby': 'howto-title' }));
  document.body.append(dialog);
  const open = () => {
    const lines = state && howToPlay(state);
    if (!state || !lines) return;
    replaceChildren(dialog, h('div', { class: 'dialog-body' },
      h('h2', { id: 'howto-title' }, `How to play ${variantTitle(state.view?.variant || state.table?.variant || '')}`),
      h('ul', { class: 'howto' }, lines.map((line) => h('li', {}, line))),
      h('div', { class: 'row dialog-buttons' },
        h('button', { type: 'button', class: 'primary big', id: 'howto-close', onclick: () => dialog.close() }, 'Close'))));
    dialog.showModal();
    dialog.scrollTop = 0;
  };
  const button = h('button', { type: 'button', id: 'howto-button', class: 'small', onclick: open }, 'How to play');
  return (/** @type {TableState} */ s) => {
    state = s;
    // In the top bar, where it takes no room from the table.
    const bar = document.querySelector('.topbar');
    if (!bar || !howToPlay(s)) {
      button.remove();
      return;
    }
    if (button.parentElement !== bar) bar.append(button);
  };
}
