import { fakeSocketScript, launchBrowser, startStatic } from './lib/harness.js';
const VARIANTS = [
  { name: 'hearts', description: 'Classic Hearts: pass three cards, avoid hearts and the queen of spades, or take them all.', players: 4,
    options: [
      { name: 'target', type: 'integer', min: 1, max: 100000, default: 100, description: 'The match ends when a player reaches this many points.' },
      { name: 'passing', type: 'boolean', default: true, description: 'Pass three cards before each hand (left, right, across, none).' },
      { name: 'moon', type: 'choice', values: ['add', 'subtract'], default: 'add', description: 'Shooting the moon adds 26 to the others, or subtracts 26 from the shooter.' }],
    strategies: ['random', 'heuristic', 'strong'] },
  { name: 'filippa', description: 'Hearts with a prize: players who take no penalty card share the pool of points.', players: 4, options: [], strategies: ['random'] },
  { name: 'hearts5', description: 'Five-player Hearts with trumps: the two undealt cards pick the trump suit.', players: 5, options: [], strategies: ['random', 'heuristic', 'strong', 'uva181'] },
];
const table = (variant, n, status) => ({ id: 't1', variant, options: { hands: 5 }, status, host: 0, spectators: 0, matches_played: 0,
  seats: Array.from({ length: n }, (_, seat) => ({ seat, occupant: seat === 0 ? 'human' : seat === 3 && status === 'waiting' ? 'empty' : 'bot', name: seat === 0 ? 'Grandma' : seat === 3 && status === 'waiting' ? null : ['', 'heuristic bot', 'strong bot', 'uva181 bot', 'random bot'][seat], connected: true, bot_playing: false })) });
const view5 = { variant: 'hearts5', options: { hands: 5 }, seat: 0, players: 5, phase: 'playing', hand_number: 2, dealer: 1,
  hand: ['2C', '9C', 'QD', '3S', 'JS', '4H', 'KH', 'AH'], hand_sizes: [8, 8, 7, 7, 8], trump: 'S', face_up: ['KS', '4D'],
  trick: { leader: 2, plays: [{ seat: 2, card: 'TD' }, { seat: 3, card: 'AD' }, { seat: 4, card: '3S' }] }, tricks: [{ leader: 2, cards: ['2D','3D','5D','6D','7D'], winner: 1 }, { leader: 1, cards: ['2H','3H','5H','6H','7H'], winner: 2 }],
  tricks_won: [0, 1, 1, 0, 0], hearts_broken: true, pass: null, totals: [10, 30, 12, 0, 44], negatives: [0,0,0,0,0], pool: 0,
  history: [{ hand: 0, points: [10, 30, 0, 0, 4], penalties: [0,0,0,0,0], tricks: [2,2,2,2,2], totals: [10, 30, 0, 0, 4], pool_carried: 0, moon: null },
            { hand: 1, points: [0, 0, 12, 0, 40], penalties: [0,0,0,0,0], tricks: [2,2,2,2,2], totals: [10, 30, 12, 0, 44], pool_carried: 0, moon: null }],
  to_act: [0], legal: { type: 'play', cards: ['QD'] }, winners: [] };
const web = await startStatic({ '/api/variants': VARIANTS, '/api/tables': [table('hearts', 4, 'waiting')], '/api/tables/t1': table('hearts', 4, 'waiting') });
const browser = await launchBrowser();
for (const [w, hgt] of [[1440, 900], [360, 740]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: hgt } });
  const page = await ctx.newPage();
  await page.goto(web.url); await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/shots/lobby-${w}.png`, fullPage: true });
  await ctx.addInitScript(fakeSocketScript);
  await ctx.addInitScript(() => { localStorage.setItem('parlor.seat.t1', JSON.stringify({ token: 'x', seat: 0 })); localStorage.setItem('parlor.name', 'Grandma'); });
  const p2 = await ctx.newPage();
  await p2.goto(`${web.url}/t/t1`); await p2.waitForFunction(() => window.__sent.length > 0);
  const push = (m) => p2.evaluate((x) => window.__push(x), m);
  await push({ type: 'welcome', protocol: 1, table: 't1', seat: 0, token: 'x', host: true });
  await push({ type: 'table', seq: 1, table: table('hearts5', 5, 'waiting') });
  await p2.waitForTimeout(300);
  await p2.screenshot({ path: `/tmp/shots/seats-${w}.png`, fullPage: true });
  await push({ type: 'table', seq: 1, table: table('hearts5', 5, 'playing') });
  await push({ type: 'state', seq: 1, view: view5 });
  await p2.waitForTimeout(200);
  await p2.screenshot({ path: `/tmp/shots/h5-${w}.png`, fullPage: true });
  await push({ type: 'event', seq: 2, event: { kind: 'hand_scored', hand: 2, points: [0, 13, 0, 14, 0], penalties: [0,0,0,0,0], tricks: [2,2,2,2,2], totals: [10, 43, 12, 14, 44], pool_carried: 0, moon: null } });
  await push({ type: 'event', seq: 3, event: { kind: 'match_over', winners: [0], totals: [10, 43, 12, 14, 44] } });
  await p2.waitForTimeout(200);
  await p2.screenshot({ path: `/tmp/shots/over-${w}.png` });
  await ctx.close();
}
await browser.close(); await web.stop();
