// @ts-check
// The table in words, for screen readers and for playing by typing: your hand grouped by suit,
// the trick so far with who played what, whose turn it is, the scores, tricks and bids, and a
// box where a card ("qs", "10h"), a bid ("3", "nil"), blind nil's choice ("blind nil", "see")
// and exchange ("give"), or a question ("hand", "trick", "score", "last trick", "whose turn",
// "help") is typed. Not shown on screen until the keyboard is in it
// ("/" anywhere takes it there); answers are read through the announcements' log.
//
// Owns: that section and the words of the table's summaries. May not touch: the state (what
// is typed goes through the actions, as a click would).

import { cardName, HAND_SUIT_ORDER, isCard, rankOf, sortHand, suitName, suitOf } from '../cards.js';
import { h, replaceChildren } from '../dom.js';
import { listText, t } from '../i18n/index.js';
import { completedPlays } from '../view-model.js';
import { bidText } from './bid.js';
import { callCommand } from './calls.js';
import { playsDummy } from './dummy.js';
import { turnText } from './felt.js';
import { plural, seatName, teamName } from './names.js';
import { part } from './part.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */
/** @typedef {import('./actions.js').Actions} Actions */
/** @typedef {import('./announcer.js').Announcer} Announcer */

/** A word with a capital first letter, in the page's language. @param {string} word */
function capital(word) {
  return word.charAt(0).toLocaleUpperCase(document.documentElement.lang) + word.slice(1);
}

/** "Clubs: Two, Seven, King. Hearts: Ace.": your hand by suit. @param {PlayerView} v */
export function handWords(v) {
  if (!v.hand.length) return t('text.no_cards');
  const cards = sortHand(v.hand);
  return HAND_SUIT_ORDER.filter((suit) => cards.some((c) => suitOf(c) === suit))
    .map((suit) => t('text.suit_line', {
      suit: capital(suitName(suit)),
      cards: listText(cards.filter((c) => suitOf(c) === suit).map((c) => t(`rank.${rankOf(c)}`))),
    })).join(' ');
}

/** Your hand in words, or that it lies face down (blind nil's choice). @param {TableState} s @param {PlayerView} v */
function yourHandWords(s, v) {
  if (s.seat !== null && v.blind?.face_down.includes(s.seat)) return t('hand.face_down', { count: v.hand_sizes[s.seat] });
  return handWords(v);
}

/** Plays in words: "Bert led Queen of spades, Cleo played Two of spades". @param {TableState} s @param {{ seat: number, card: string }[]} plays */
function playsWords(s, plays) {
  return plays.map((p, i) => t(i === 0 ? 'text.led' : 'text.played', { name: seatName(s, p.seat), card: cardName(p.card) })).join(', ');
}

/** The trick on the table in words. @param {TableState} s @param {PlayerView} v */
export function trickWords(s, v) {
  if (!v.trick.plays.length) {
    return v.phase === 'playing' ? t('text.trick_empty', { name: seatName(s, v.trick.leader) }) : t('text.no_trick');
  }
  return `${playsWords(s, v.trick.plays)}.`;
}

/** The last finished trick in words. @param {TableState} s @param {PlayerView} v */
export function lastTrickWords(s, v) {
  const last = v.tricks[v.tricks.length - 1];
  if (!last) return t('text.no_last_trick');
  return `${playsWords(s, completedPlays(last, v.players, v.calling?.out))}. ${t('felt.took', { name: seatName(s, last.winner) })}.`;
}

/** Each seat's (or side's) total, tricks this hand and bid. @param {TableState} s @param {PlayerView} v */
export function scoreWords(s, v) {
  if (factsOf(s)?.partnerships) {
    return [0, 1].map((team) => t('text.team_score', {
      name: teamName(s, team), total: v.totals[team], tricks: plural(v.tricks_won[team] + v.tricks_won[team + 2], 'trick'),
    })).join(' ');
  }
  return Array.from({ length: v.players }, (_, seat) => {
    const bid = v.bids?.[seat];
    const words = t('text.seat_score', { name: seatName(s, seat), total: v.totals[seat], tricks: plural(v.tricks_won[seat], 'trick') });
    return bid === null || bid === undefined ? words : `${words} ${t('text.seat_bid', { bid: bidText(v, bid) })}`;
  }).join(' ');
}

/** The commands people type, in English and in the page's language. */
const COMMANDS = ['hand', 'trick', 'score', 'last', 'turn', 'pass', 'help', 'blind', 'see', 'give'];

/** Typed words made comparable: lower case, one kind of apostrophe. @param {string} text */
function normalised(text) {
  return text.trim().toLocaleLowerCase().replace(/[’‘]/g, "'");
}

/** The command `text` names, or null. @param {string} text */
function commandOf(text) {
  const words = normalised(text);
  return COMMANDS.find((c) => t(`cmd.${c}`).split('|').map(normalised).includes(words) || EN_COMMANDS[c].includes(words)) || null;
}

/** The English words of each command, understood in every language. @type {Record<string, string[]>} */
const EN_COMMANDS = {
  hand: ['hand', 'h'], trick: ['trick', 't'], score: ['score', 'scores', 's'], last: ['last trick', 'last', 'l'],
  turn: ['whose turn', 'turn', 'w'], pass: ['pass'], help: ['help', '?'],
  blind: ['blind nil', 'blind'], see: ['see cards', 'see', 'look'], give: ['give'],
};

/** Blind nil's choice, the hand still face down: bid blind nil, or look. @param {string} command @param {PlayerView} v @param {Actions} actions */
function blindCommand(command, v, actions) {
  if (v.legal.type !== 'blind') return t('text.no_blind');
  if (command === 'blind') actions.blindNil();
  else actions.seeCards();
  return '';
}

/** Gives the chosen cards to the partner in blind nil's exchange. @param {TableState} s @param {PlayerView} v @param {Actions} actions */
function giveCommand(s, v, actions) {
  if (v.legal.type !== 'exchange') return t('text.no_give');
  if (s.selected.size !== v.legal.count) return t('text.give_count', { n: s.selected.size, count: v.legal.count });
  actions.exchangeSelected();
  return '';
}

/**
 * What a typed line does: a card to play or choose to pass or give, a bid, blind nil or a look
 * at the face-down cards, or a question answered in words. Returns the words to read, or "" when an action was taken (its effect is announced as
 * it happens, a refusal is read from the error line).
 * @param {string} text @param {TableState} s @param {Actions} actions
 */
export function runCommand(text, s, actions) {
  const v = s.view;
  if (!v) return t('text.no_game');
  const said = text.trim();
  if (!said) return '';
  // Euchre's calls and discard first: "pass" is then a call, "h" names hearts.
  const call = callCommand(said, s, actions);
  if (call !== null) return call;
  const command = commandOf(said);
  if (command === 'hand') return s.role === 'player' ? yourHandWords(s, v) : t('text.watching');
  if (command === 'trick') return trickWords(s, v);
  if (command === 'last') return lastTrickWords(s, v);
  if (command === 'score') return scoreWords(s, v);
  if (command === 'turn') return turnText(s, v);
  if (command === 'help') return v.blind ? `${t('text.help')} ${t('text.help_blind')}` : t('text.help');
  if (command === 'blind' || command === 'see') return s.role === 'player' ? blindCommand(command, v, actions) : t('text.watching');
  if (command === 'give' || (command === 'pass' && v.legal.type === 'exchange')) {
    return s.role === 'player' ? giveCommand(s, v, actions) : t('text.watching');
  }
  if (command === 'pass') {
    if (v.legal.type !== 'pass') return t('text.no_pass');
    if (s.selected.size !== v.legal.count) return t('text.pass_count', { n: s.selected.size, count: v.legal.count });
    actions.passSelected();
    return '';
  }
  if (s.role !== 'player') return t('text.watching');
  const nil = t('bid.nil').toLocaleLowerCase();
  const isBid = /^\d{1,2}$/.test(said) || said.toLocaleLowerCase() === nil || said.toLocaleLowerCase() === 'nil';
  // Face down, neither a card nor a bid can be meant: say what the choice is.
  if (v.legal.type === 'blind' && (isCard(said) || isBid)) return t('text.blind_choice');
  if (isCard(said)) {
    const card = (said.length === 3 ? 'T' : said[0].toUpperCase()) + said[said.length - 1].toUpperCase();
    // Declarer's turn for dummy: a card of dummy's is played from dummy.
    if (playsDummy(s, v) && v.bridge?.dummy?.cards.includes(card)) {
      actions.clickDummyCard(card);
      return '';
    }
    if (!v.hand.includes(card)) return t('error.card_not_held', { card: cardName(card) });
    const wasChosen = s.selected.has(card);
    actions.clickCard(card);
    if (v.legal.type === 'pass' || v.legal.type === 'exchange') {
      const now = actions.state.selected;
      if (now.has(card) === wasChosen) return '';
      const chosen = v.legal.type === 'pass' ? 'text.chosen' : 'text.chosen_give';
      return t(now.has(card) ? chosen : 'text.unchosen', { card: cardName(card), n: now.size, count: v.legal.count });
    }
    return '';
  }
  if (isBid) {
    actions.bid(/^\d/.test(said) ? Number(said) : 0);
    return '';
  }
  return t('text.unknown', { text: said });
}

/** The section with the table in words and the box to type in. @param {Actions} actions @param {Announcer} announcer */
export function textViewPart(actions, announcer) {
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: 'command', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'aria-describedby': 'command-help',
  }));
  const answer = h('p', { id: 'command-answer' });
  const form = h('form', {
    class: 'command-form',
    onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const words = runCommand(input.value, actions.state, actions);
      input.value = '';
      answer.textContent = words;
      announcer.say(words);
    },
  },
  h('label', { for: 'command' }, t('text.command_label')), input,
  h('p', { id: 'command-help', class: 'hint' }, t('text.command_help')), answer);
  const body = h('div', { class: 'text-view-body' });
  const el = h('section', { class: 'text-view', id: 'text-view', 'aria-labelledby': 'text-view-title' },
    h('h2', { id: 'text-view-title' }, t('text.title')), body, form);
  // "/" from anywhere but a box being typed in takes the keyboard to the command box.
  document.addEventListener('keydown', (e) => {
    const target = /** @type {HTMLElement} */ (e.target);
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || !el.isConnected) return;
    e.preventDefault();
    input.focus();
  });
  const p = part(body, (s) => {
    const v = s.view;
    return [v?.hand, v?.blind, v?.trick, v?.tricks, v?.totals, v?.tricks_won, v?.bids, v?.legal, v?.to_act, v?.phase, s.table, s.role, s.seat, v?.bridge];
  }, (_, s) => {
    const v = /** @type {PlayerView} */ (s.view);
    replaceChildren(body,
      h('h3', {}, t('text.turn')), h('p', { id: 'text-turn' }, turnText(s, v)),
      s.role === 'player' ? [h('h3', {}, t('hand.label')), h('p', { id: 'text-hand' }, yourHandWords(s, v))] : null,
      v.bridge?.dummy && !(s.role === 'player' && s.seat === v.bridge.dummy.seat)
        ? [h('h3', {}, t('bridge.dummy_heading')), h('p', { id: 'text-dummy' }, handWords({ ...v, hand: v.bridge.dummy.cards }))] : null,
      h('h3', {}, t('text.trick')), h('p', { id: 'text-trick' }, trickWords(s, v)),
      h('h3', {}, t('text.scores')), h('p', { id: 'text-scores' }, scoreWords(s, v)));
  });
  return { el, update: (/** @type {TableState} */ s) => p.update(s) };
}
