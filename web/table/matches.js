// @ts-check
// Every match played at this table while the page is open: the finished matches' score lines
// kept when the host plays again, and a small chart of the running totals (plain SVG), shown
// under the score sheet in the end-of-hand dialog.
//
// Owns: the kept matches (in this module, for as long as the page is open) and the
// `.match-history` section it adds to the dialog. May not touch: the state or the sheet itself.

import { t } from '../i18n/index.js';
import { h } from '../dom.js';
import { seatName, teamName, winnersText } from './names.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */

/**
 * One match as the chart draws it: a line per column, each the totals after every hand.
 * @typedef {{ labels: string[], series: number[][], winners: string }} Match
 */

const SVG = 'http://www.w3.org/2000/svg';
// The same colours as the legend's `.swatch.cN` in style.css (inline styles are not allowed).
const COLOURS = ['#2563eb', '#c2410c', '#15803d', '#7e22ce', '#be123c', '#0e7490', '#4d7c0f'];

/** An SVG element. @param {string} tag @param {Record<string, string | number>} attrs @param {Node[]} [kids] */
function svg(tag, attrs, kids = []) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...kids);
  return el;
}

/** The match in `v` as lines of running totals, from nothing before the first hand. @param {TableState} s @param {PlayerView} v @returns {Match} */
function matchOf(s, v) {
  const teams = Boolean(factsOf(s)?.partnerships);
  const cols = teams ? [0, 1] : Array.from({ length: v.players }, (_, i) => i);
  const series = cols.map((c) => {
    const line = [0, ...v.history.map((r) => r.totals[c])];
    if (line[line.length - 1] !== v.totals[c]) line.push(v.totals[c]);
    return line;
  });
  return {
    labels: cols.map((c) => (teams ? teamName(s, c) : seatName(s, c))),
    series,
    winners: v.phase === 'match_over' ? winnersText(s, v.winners) : '',
  };
}

/** A small chart of the running totals, one line per column. @param {Match} m @param {string} title */
export function totalsChart(m, title) {
  const W = 300;
  const H = 120;
  const pad = 6;
  const all = m.series.flat();
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const steps = Math.max(1, ...m.series.map((l) => l.length - 1));
  const x = (/** @type {number} */ i) => pad + (i * (W - 2 * pad)) / steps;
  const y = (/** @type {number} */ t) => H - pad - ((t - lo) * (H - 2 * pad)) / (hi - lo);
  const lines = m.series.map((line, i) => svg('polyline', {
    class: 'chart-line', 'data-column': i, fill: 'none', stroke: COLOURS[i % COLOURS.length], 'stroke-width': 2.5,
    points: line.map((t, k) => `${x(k).toFixed(1)},${y(t).toFixed(1)}`).join(' '),
  }, [svg('title', {}, [document.createTextNode(`${m.labels[i]}: ${line[line.length - 1]}`)])]));
  const zero = svg('line', { x1: pad, x2: W - pad, y1: y(0), y2: y(0), stroke: '#9ca3af', 'stroke-dasharray': '3 3' });
  const chart = svg('svg', { class: 'totals-chart', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': title }, [zero, ...lines]);
  const legend = h('ul', { class: 'chart-legend' }, m.labels.map((label, i) => h('li', {},
    h('span', { class: `swatch c${i % COLOURS.length}` }), `${label} ${m.series[i][m.series[i].length - 1]}`)));
  return h('figure', { class: 'chart' }, chart, legend);
}

/** The listener that keeps the finished matches and adds them and the chart to the dialog. */
export function matchHistory() {
  /** @type {Match[]} */
  const past = [];
  /** @type {Match | null} the match shown as over, kept once the next one starts */
  let over = null;
  /** @type {unknown[]} */
  let drawn = [];
  return (/** @type {TableState} */ s) => {
    const v = s.view;
    if (v && v.phase === 'match_over') over = matchOf(s, v);
    else if (v && over) {
      past.push(over);
      over = null;
    }
    const body = document.querySelector('#score-dialog[open] .dialog-body');
    if (!body || !v) return;
    const inputs = [body, v.history, v.totals, past.length, s.table];
    const known = body.querySelector('.match-history');
    if (known && inputs.every((x, i) => x === drawn[i])) return;
    drawn = inputs;
    const current = matchOf(s, v);
    // Nothing to draw before a point is scored.
    const started = current.series.some((line) => line.some((t) => t !== 0));
    const section = h('section', { class: 'match-history', 'aria-label': t('matches.label') },
      started ? h('h3', {}, t('matches.running')) : null,
      started ? totalsChart(current, t('matches.running_this')) : null,
      past.length ? h('h3', {}, t('matches.earlier')) : null,
      past.map((m, i) => h('details', { class: 'past-match', 'data-match': i + 1 },
        h('summary', {}, t('matches.past', { n: i + 1, winners: m.winners, totals: m.labels.map((l, k) => `${l} ${m.series[k][m.series[k].length - 1]}`).join(', ') })),
        totalsChart(m, t('matches.running_n', { n: i + 1 })))));
    if (known) known.replaceWith(section);
    else body.querySelector('.dialog-buttons')?.before(section);
  };
}
