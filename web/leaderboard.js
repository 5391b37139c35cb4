// @ts-check
// The leaderboard page (`/leaderboard`): per variant, every rated computer player (the
// server's built-in strategies and registered bots) with its rating and 95% interval, matches
// played, recent form and a chart of its rating over time; `?who=KIND/NAME` shows one player's
// recent matches with links to their replays.
//
// Owns: the page under `root`. Reads `api/variants` and `api/leaderboard` only.

import { h, replaceChildren } from './dom.js';
import { errorText, variantTitle } from './lobby.js';
import { totalsChart } from './table/matches.js';
import { STRATEGY_TEXT } from './table/names.js';

/** How many players the chart draws at once. */
const CHARTED = 5;

/** A player's name in words: a built-in strategy's friendly name, or the bot's own. @param {any} e */
function playerName(e) {
  if (e.kind === 'builtin') {
    const words = /** @type {Record<string, string>} */ (STRATEGY_TEXT)[e.name];
    return words ? `${words} (${e.name})` : e.name;
  }
  return e.name;
}

/** "27.3 ± 4.1": the rating and the half-width of its 95% interval. @param {any} e */
function ratingText(e) {
  return `${e.rating.toFixed(1)} ± ${((e.interval[1] - e.interval[0]) / 2).toFixed(1)}`;
}

/** "1st", "2nd"… @param {number} n */
function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] || 'th';
  return `${n}${suffix}`;
}

/** The places of the last matches, oldest first. @param {any} e */
function recentForm(e) {
  return h('span', { class: 'form' }, e.recent.map((/** @type {any} */ r) => h('span', {
    class: `form-place${r.place === 1 ? ' won' : ''}`, title: `${ordinal(r.place)} of ${r.of}`,
  }, String(r.place))));
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
  }, 'Ratings after each match');
}

/** The board of one variant. @param {string} variant @param {any} board */
function boardView(variant, board) {
  if (board.entries.length === 0) {
    return h('p', { class: 'hint', id: 'no-ratings' }, `Nobody is rated at ${variantTitle(variant)} yet: ratings come from finished matches with computer players.`);
  }
  return [
    h('table', { class: 'leaderboard', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['Rank', 'Player', 'Rating (95%)', 'Matches', 'Recent form'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, board.entries.map((/** @type {any} */ e) => h('tr', { 'data-name': e.name, 'data-kind': e.kind },
        h('td', {}, String(e.rank)),
        h('td', {}, playerLink(variant, e), e.kind === 'bot' ? h('span', { class: 'badge' }, 'bot') : null,
          e.owner ? h('div', { class: 'hint' }, `by ${e.owner}`) : null),
        h('td', { class: 'rating' }, ratingText(e)),
        h('td', {}, String(e.matches)),
        h('td', {}, recentForm(e)))))),
    ratingChart(board.entries),
  ];
}

/** One player's page: its rating, chart and recent matches with their replays. @param {string} variant @param {any} e */
function playerView(variant, e) {
  return [
    h('h2', { id: 'player-title' }, playerName(e)),
    h('p', {}, `${variantTitle(variant)}: rank ${e.rank}, rating ${ratingText(e)} after ${e.matches} matches.`,
      e.owner ? ` Run by ${e.owner}.` : ''),
    ratingChart([e]),
    h('h3', {}, 'Recent matches'),
    h('ul', { class: 'recent-matches', id: 'recent-matches' }, [...e.recent].reverse().map((/** @type {any} */ r) => h('li', {},
      `${new Date(r.at).toLocaleString()}: ${ordinal(r.place)} of ${r.of} · `,
      ...(r.table
        ? [h('a', { href: `t/${encodeURIComponent(r.table)}` }, 'table'), ' · ',
          h('a', { href: r.replays, class: 'replays' }, 'replays of its hands')]
        : [h('span', { class: 'private-match' }, 'at a private table')])))),
    h('p', {}, h('a', { href: `leaderboard?variant=${encodeURIComponent(variant)}` }, '← The whole leaderboard')),
  ];
}

/** Shows the leaderboard in `root`. @param {HTMLElement} root */
export async function showLeaderboard(root) {
  const params = new URLSearchParams(location.search);
  const body = h('div', { class: 'leaderboard-body' }, h('p', { class: 'hint' }, 'Loading…'));
  const tabs = h('nav', { class: 'variant-tabs', 'aria-label': 'Games' });
  replaceChildren(root, h('section', { class: 'panel' }, h('h1', {}, 'Leaderboard'),
    h('p', { class: 'hint' }, 'Computer players rated from their finished matches (Weng-Lin ratings: everyone starts at 25; the ± is a 95% interval that narrows as they play).'),
    tabs, body), h('p', {}, h('a', { href: './' }, '← Back to the tables')));
  document.title = 'Leaderboard · Parlor';
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
