// @ts-check
// The leaderboard page (`/leaderboard`): per variant, every rated computer player (the
// server's built-in strategies and registered bots) with its rating and 95% interval, matches
// played, recent form and a chart of its rating over time; `?who=KIND/NAME` shows one player's
// recent matches with links to their replays.
//
// Owns: the page under `root`. Reads `api/variants` and `api/leaderboard` only.

import { h, replaceChildren } from './dom.js';
import { formatNumber, t } from './i18n/index.js';
import { errorText, variantTitle } from './lobby.js';
import { totalsChart } from './table/matches.js';
import { strategyText } from './table/names.js';

/** How many players the chart draws at once. */
const CHARTED = 5;

/** A player's name in words: a built-in strategy's friendly name, or the bot's own. @param {any} e */
function playerName(e) {
  if (e.kind === 'builtin') {
    const words = strategyText(e.name);
    return words !== e.name ? `${words} (${e.name})` : e.name;
  }
  return e.name;
}

/** "27.3 ± 4.1": the rating and the half-width of its 95% interval. @param {any} e */
function ratingText(e) {
  const one = (/** @type {number} */ x) => new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(x);
  return `${one(e.rating)} ± ${one((e.interval[1] - e.interval[0]) / 2)}`;
}

/** "1st of 4", "2nd of 4"… in the language's own way. @param {number} place @param {number} of */
function placeText(place, of) {
  const form = new Intl.PluralRules(document.documentElement.lang, { type: 'ordinal' }).select(place);
  return t(`leaderboard.place.${form}`, { place, of });
}

/** The places of the last matches, oldest first. @param {any} e */
function recentForm(e) {
  return h('span', { class: 'form' }, e.recent.map((/** @type {any} */ r) => h('span', {
    class: `form-place${r.place === 1 ? ' won' : ''}`, title: placeText(r.place, r.of),
  }, formatNumber(r.place))));
}

/** A link to a player's own view. @param {string} variant @param {any} e */
function playerLink(variant, e) {
  const href = `leaderboard?variant=${encodeURIComponent(variant)}&who=${encodeURIComponent(`${e.kind}/${e.name}`)}`;
  return h('a', { href }, playerName(e));
}

/** The ratings of the first players over their matches. @param {any[]} entries */
function ratingChart(entries) {
  const shown = entries.slice(0, CHARTED).filter((e) => e.history.length > 0);
  if (shown.length === 0) return null;
  return totalsChart({
    labels: shown.map(playerName),
    series: shown.map((e) => [25, ...e.history.map((/** @type {number[]} */ p) => Math.round(p[1] * 10) / 10)]),
    winners: '',
  }, t('leaderboard.chart'));
}

/** The board of one variant. @param {string} variant @param {any} board */
function boardView(variant, board) {
  if (board.entries.length === 0) {
    return h('p', { class: 'hint', id: 'no-ratings' }, t('leaderboard.none', { game: variantTitle(variant) }));
  }
  return [
    h('table', { class: 'leaderboard', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['rank', 'player', 'rating', 'matches', 'form'].map((k) => h('th', { scope: 'col' }, t(`leaderboard.col.${k}`))))),
      h('tbody', {}, board.entries.map((/** @type {any} */ e) => h('tr', { 'data-name': e.name, 'data-kind': e.kind },
        h('td', {}, formatNumber(e.rank)),
        h('td', {}, playerLink(variant, e), e.kind === 'bot' ? h('span', { class: 'badge' }, t('leaderboard.bot')) : null,
          e.owner ? h('div', { class: 'hint' }, t('leaderboard.by', { owner: e.owner })) : null),
        h('td', { class: 'rating' }, ratingText(e)),
        h('td', {}, formatNumber(e.matches)),
        h('td', {}, recentForm(e)))))),
    ratingChart(board.entries),
  ];
}

/** One player's page: its rating, chart and recent matches with their replays. @param {string} variant @param {any} e */
function playerView(variant, e) {
  return [
    h('h2', { id: 'player-title' }, playerName(e)),
    h('p', {}, t('leaderboard.summary', { game: variantTitle(variant), rank: e.rank, rating: ratingText(e), count: e.matches }),
      e.owner ? ` ${t('leaderboard.run_by', { owner: e.owner })}` : ''),
    ratingChart([e]),
    h('h3', {}, t('leaderboard.recent')),
    h('ul', { class: 'recent-matches', id: 'recent-matches' }, [...e.recent].reverse().map((/** @type {any} */ r) => h('li', {},
      `${new Date(r.at).toLocaleString(document.documentElement.lang)}: ${placeText(r.place, r.of)} · `,
      ...(r.table
        ? [h('a', { href: `t/${encodeURIComponent(r.table)}` }, t('leaderboard.table')), ' · ',
          h('a', { href: r.replays, class: 'replays' }, t('leaderboard.replays'))]
        : [h('span', { class: 'private-match' }, t('leaderboard.private'))])))),
    h('p', {}, h('a', { href: `leaderboard?variant=${encodeURIComponent(variant)}` }, t('leaderboard.whole'))),
  ];
}

/** Shows the leaderboard in `root`. @param {HTMLElement} root */
export async function showLeaderboard(root) {
  const params = new URLSearchParams(location.search);
  const body = h('div', { class: 'leaderboard-body' }, h('p', { class: 'hint' }, t('common.loading')));
  const tabs = h('nav', { class: 'variant-tabs', 'aria-label': t('leaderboard.games') });
  replaceChildren(root, h('section', { class: 'panel' }, h('h1', {}, t('leaderboard.title')),
    h('p', { class: 'hint' }, t('leaderboard.intro')),
    tabs, body), h('p', {}, h('a', { href: './' }, t('leaderboard.back'))));
  document.title = t('leaderboard.page_title');
  try {
    const res = await fetch('api/variants');
    if (!res.ok) throw new Error(await errorText(res));
    const variants = (await res.json()).map((/** @type {any} */ v) => v.name);
    const variant = variants.includes(params.get('variant')) ? String(params.get('variant')) : variants[0];
    replaceChildren(tabs, variants.map((/** @type {string} */ v) => h('a', {
      href: `leaderboard?variant=${encodeURIComponent(v)}`, class: `tab${v === variant ? ' chosen' : ''}`,
      'aria-current': v === variant ? 'page' : null,
    }, variantTitle(v))));
    const who = params.get('who');
    const url = who ? `api/leaderboard/${who.split('/').map(encodeURIComponent).join('/')}?variant=${encodeURIComponent(variant)}`
      : `api/leaderboard?variant=${encodeURIComponent(variant)}`;
    const answer = await fetch(url);
    if (!answer.ok) throw new Error(await errorText(answer));
    const data = await answer.json();
    replaceChildren(body, who ? playerView(variant, data) : boardView(variant, data));
  } catch (e) {
    replaceChildren(body, h('p', { class: 'error', role: 'alert' }, /** @type {Error} */ (e).message));
  }
}
