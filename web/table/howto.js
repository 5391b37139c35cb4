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
import { hasKey, languageSwitch, t } from '../i18n/index.js';
import { variantTitle } from '../lobby.js';
import { variantEntry } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */

/**
 * What the words need: the variant's entry, and one option's value at this table with the
 * rules' default beside it.
 * @typedef {{ entry: any, facts: any, value: (name: string) => any, usual: (name: string) => any }} Rules
 */

/** "30 points (the usual match is 100)", or just "100 points". @param {Rules} r @param {string} name @param {string} unit a `howto.unit.*` key */
function withUsual(r, name, unit) {
  const value = r.value(name);
  const usual = r.usual(name);
  const amount = t(`howto.unit.${unit}`, { count: value });
  return value === usual ? amount : t('howto.usual', { amount, usual });
}

/** The points of the cards that count, highest first, as "queen of spades 13" (none of `skip` points). @param {Record<string, number>} points @param {number} [skip] */
function pointsList(points, skip) {
  return Object.entries(points)
    .filter(([, p]) => p !== skip)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .map(([card, p]) => `${cardName(card)} ${p}`);
}

/** How a variant is scored, in a line: the catalogue's, or the server's own words. @param {string} variant @param {{ scoring: string }} facts */
export function scoringText(variant, facts) {
  return hasKey(`scoring.${variant}`) ? t(`scoring.${variant}`) : facts.scoring;
}

/** @type {Record<string, (r: Rules) => string[]>} */
const WORDS = {
  hearts: (r) => [
    t('howto.hearts.1'),
    r.value('passing') ? t('howto.hearts.pass', { count: r.facts.pass_count }) : t('howto.hearts.no_pass'),
    t('howto.hearts.lead'),
    t('howto.hearts.first'),
    t(r.value('moon') === 'subtract' ? 'howto.hearts.points_subtract' : 'howto.hearts.points_add', {
      heart: r.facts.card_points['2H'], queen: r.facts.card_points.QS,
    }),
    t('howto.hearts.end', { target: withUsual(r, 'target', 'points') }),
  ],
  filippa: (r) => [
    t('howto.filippa.1'),
    t('howto.filippa.pass', { count: r.facts.pass_count }),
    t('howto.filippa.lead'),
    t('howto.filippa.penalties', { cards: pointsList(r.facts.card_points, -1).join(', '), heart: r.facts.card_points['2H'] }),
    t('howto.filippa.pool', { prize: r.facts.prize }),
    t('howto.filippa.end', { target: withUsual(r, 'target', 'prize') }),
  ],
  hearts5: (r) => [
    t('howto.hearts5.1', { count: r.facts.hand_size }),
    t('howto.hearts5.follow'),
    t('howto.hearts5.points', { low: r.facts.card_points['2H'], high: r.facts.card_points.AH }),
    t('howto.hearts5.end', { hands: withUsual(r, 'hands', 'hands') }),
  ],
  tricks: (r) => [
    t('howto.tricks.1'),
    t('howto.tricks.follow'),
    r.value('bad_card') === 'penalty' ? t('howto.tricks.penalty', { points: r.facts.bad_card_penalty }) : t('howto.tricks.reject'),
    t('howto.tricks.end', { target: withUsual(r, 'target', 'points') }),
  ],
  whist: (r) => [
    t('howto.partners'),
    t('howto.whist.trump'),
    t('howto.follow_trump'),
    t('howto.whist.score'),
    t('howto.side_end', { target: withUsual(r, 'target', 'points') }),
  ],
  spades: (r) => [
    t('howto.partners'),
    t('howto.spades.bid', { count: r.facts.hand_size }),
    r.value('nil') ? t('howto.spades.nil') : t('howto.spades.no_nil'),
    r.value('spades_broken') ? `${t('howto.spades.trump')} ${t('howto.spades.broken')}` : t('howto.spades.trump'),
    ...(r.value('jokers') ? [t('howto.spades.jokers')] : []),
    ...(r.value('blind_nil') ? [t('howto.spades.blind_nil', { behind: r.value('blind_nil_behind') })] : []),
    scoringText('spades', r.facts),
    r.value('bag_limit') > 0 ? t('howto.spades.bags', { limit: r.value('bag_limit'), cost: r.value('bag_penalty') }) : t('howto.spades.no_bags'),
    r.value('mercy') > 0 ? t('howto.spades.end_mercy', { target: withUsual(r, 'target', 'points'), mercy: r.value('mercy') })
      : t('howto.side_end', { target: withUsual(r, 'target', 'points') }),
  ],
  ohhell: (r) => [
    t('howto.ohhell.players', { count: r.value('players') }),
    t('howto.ohhell.sizes', { schedule: hasKey(`howto.schedule.${r.value('schedule')}`) ? t(`howto.schedule.${r.value('schedule')}`) : r.value('schedule') }),
    t('howto.ohhell.trump'),
    r.value('hook') ? `${t('howto.ohhell.bid')} ${t('howto.ohhell.hook')}` : t('howto.ohhell.bid'),
    t('howto.follow_trump'),
    hasKey(`howto.scoring.${r.value('scoring')}`) ? t(`howto.scoring.${r.value('scoring')}`) : scoringText('ohhell', r.facts),
  ],
  euchre: (r) => [
    t('howto.partners'),
    t('howto.euchre.deal'),
    t('howto.euchre.order'),
    `${t('howto.euchre.name')} ${t(r.value('stick_the_dealer') ? 'howto.euchre.stick' : 'howto.euchre.thrown_in')}`,
    t('howto.euchre.bowers'),
    t('howto.follow_trump'),
    ...(r.value('alone') ? [t('howto.euchre.alone')] : []),
    ...(r.value('defend_alone') ? [t('howto.euchre.defend_alone')] : []),
    t('howto.euchre.score'),
    t('howto.side_end', { target: withUsual(r, 'target', 'points') }),
  ],
  bridge: (r) => [
    t('howto.partners'),
    t('howto.bridge.deal'),
    t('howto.bridge.auction'),
    t('howto.bridge.contract'),
    t('howto.bridge.dummy'),
    t('howto.follow_trump'),
    t('howto.bridge.claim'),
    scoringText('bridge', r.facts),
  ],
};

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
  const options = /** @type {Record<string, unknown>} */ (s.view?.options || s.table?.options || {});
  /** @type {Rules} */
  const r = { entry, facts: entry.facts, usual, value: (name) => options[name] ?? usual(name) };
  return words(r);
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
      h('h2', { id: 'howto-title' }, t('howto.title', { game: variantTitle(state.view?.variant || state.table?.variant || '') })),
      h('ul', { class: 'howto' }, lines.map((line) => h('li', {}, line))),
      h('div', { class: 'row dialog-buttons' },
        // The table's language switch lives here, where it takes no room from the game.
        h('label', { class: 'language', for: 'language' }, t('lang.switch'), languageSwitch()),
        h('button', { type: 'button', class: 'primary big', id: 'howto-close', onclick: () => dialog.close() }, t('common.close')))));
    dialog.showModal();
    dialog.scrollTop = 0;
  };
  const button = h('button', { type: 'button', id: 'howto-button', class: 'small', onclick: open }, t('howto.button'));
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
