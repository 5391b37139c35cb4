#!/usr/bin/env node
// @ts-check
// A small Parlor bot for Node, typed with the generated protocol.d.ts (checked by `tsc`).
// It creates a table (or joins --table), fills the other seats with built-in bots when it is
// the host, starts, and answers each prompt once, naming the prompt's `seq`: the first legal
// card or pass, in the games where players bid (spades, ohhell) a count of its aces and
// trumps, in Euchre a call from the length of its suits and the discard of its lowest side
// card, and in Bridge an opening bid of one in its longest suit with 12 or more high-card points
// (else a pass) and a rejection of any claim (it plays the hand out). It stops when the match
// is over.
//
//   node examples/bot.mjs --url http://127.0.0.1:8080 [--table ID] [--variant hearts]
//                         [--target 20] [--options '{"players":4}'] [--seed 7] [--name node-bot]

import WebSocket from 'ws';

/** @typedef {import('parlor-protocol').ClientMsg} ClientMsg */
/** @typedef {import('parlor-protocol').ServerMsg} ServerMsg */
/** @typedef {import('parlor-protocol').Legal} Legal */
/** @typedef {import('parlor-protocol').PlayerView} PlayerView */
/** @typedef {import('parlor-protocol').CreatedTable} CreatedTable */
/** @typedef {Extract<ServerMsg, { type: 'your_turn' }>} YourTurn */

/** The most messages a match may take before the bot gives up (a bound, not a timeout). */
const MAX_MESSAGES = 100_000;

/** @param {string[]} argv */
function options(argv) {
  /** @type {Record<string, string>} */
  const opts = { url: 'http://127.0.0.1:8080', variant: 'hearts', name: 'node-bot' };
  for (let i = 0; i + 1 < argv.length; i += 2) {
    opts[argv[i].replace(/^--/, '')] = argv[i + 1];
  }
  return opts;
}

/**
 * A bid from the hand in the prompt's view: one trick for each ace and each trump (an ace of
 * trumps counts once), at least one in Spades (where 0 is nil), then the nearest bid the
 * prompt allows: within `min`..`max`, and one off when it is the `forbidden` bid (the Oh Hell
 * dealer's, under the hook).
 * @param {Extract<Legal, { type: 'bid' }>} legal
 * @param {PlayerView} view
 * @returns {number}
 */
export function simpleBid(legal, view) {
  const trump = view.trump ?? null;
  let bid = view.hand.filter((card) => card.startsWith('A') || card.slice(-1) === trump).length;
  if (view.variant === 'spades') bid = Math.max(bid, 1);
  bid = Math.min(Math.max(bid, legal.min), legal.max);
  if (bid === legal.forbidden) bid = bid > legal.min ? bid - 1 : bid + 1;
  return bid;
}

/** Ranks from low to high, as cards are written ("T" for ten). */
const RANKS = '23456789TJQKA';

/** The other suit of each suit's colour: its jack is the left bower when the suit is trump. */
/** @type {Record<string, string>} */
const SAME_COLOUR = { C: 'S', S: 'C', D: 'H', H: 'D' };

/**
 * A Euchre call: the suit it would make trump (the turned card's when ordering up, else its
 * longest suit the prompt lets it name), made when it holds three or more cards of it (the jack
 * of the same colour, the left bower, counted in), never alone; otherwise a pass, or for a dealer
 * who must name a suit, that suit anyway.
 * @param {Extract<Legal, { type: 'call' }>} legal
 * @param {PlayerView} view
 * @returns {import('parlor-protocol').Call}
 */
export function simpleCall(legal, view) {
  /** @param {string} suit */
  const holding = (suit) => {
    const left = `J${SAME_COLOUR[suit]}`;
    return view.hand.filter((card) => card.slice(-1) === suit || card === left).length;
  };
  if (legal.order_up) {
    const turned = (view.face_up[0] ?? '').slice(-1);
    if (turned && holding(turned) >= 3) return { call: 'order_up', alone: false };
  } else if (legal.name) {
    /** @type {import('parlor-protocol').Suit[]} */
    const suits = ['C', 'D', 'H', 'S'];
    const open = suits.filter((suit) => suit !== legal.except);
    const best = open.reduce((a, b) => (holding(b) > holding(a) ? b : a));
    if (holding(best) >= 3 || !legal.pass) return { call: 'trump', suit: best, alone: false };
  }
  // A defender asked whether to defend alone passes too.
  return { call: 'pass' };
}

/** High-card points of a rank: ace 4, king 3, queen 2, jack 1. */
/** @type {Record<string, number>} */
const HCP = { A: 4, K: 3, Q: 2, J: 1 };

/**
 * A call of Bridge's auction: with nobody's bid yet and 12 or more high-card points, one of its
 * longest suit (the higher of two as long); otherwise a pass.
 * @param {Extract<Legal, { type: 'call' }>} legal
 * @param {PlayerView} view
 * @returns {import('parlor-protocol').Call}
 */
export function bridgeCall(legal, view) {
  const points = view.hand.reduce((sum, card) => sum + (HCP[card[0]] ?? 0), 0);
  const bids = (view.calling?.calls ?? []).filter((c) => c.call === 'bid');
  /** @type {import('parlor-protocol').Suit[]} */
  const suits = ['C', 'D', 'H', 'S'];
  /** @param {string} suit */
  const length = (suit) => view.hand.filter((card) => card.slice(-1) === suit).length;
  const longest = suits.reduce((a, b) => (length(b) >= length(a) ? b : a));
  if (bids.length === 0 && points >= 12 && legal.bid_from?.level === 1) {
    return { call: 'bid', level: 1, strain: longest };
  }
  return { call: 'pass' };
}

/**
 * The dealer's Euchre discard: its lowest card that is not of the trump suit (nor the left
 * bower), else its lowest card.
 * @param {Extract<Legal, { type: 'discard' }>} legal
 * @param {PlayerView} view
 * @returns {string}
 */
export function simpleDiscard(legal, view) {
  const trump = view.trump ?? '';
  const left = trump ? `J${SAME_COLOUR[trump]}` : '';
  const side = legal.from.filter((card) => card.slice(-1) !== trump && card !== left);
  const pool = side.length > 0 ? side : legal.from;
  return pool.reduce((a, b) => (RANKS.indexOf(b[0]) < RANKS.indexOf(a[0]) ? b : a));
}

/**
 * The answer to a prompt: a play prompt's first card, a pass prompt's first `count` cards, a
 * bid prompt's {@link simpleBid}, a call prompt's {@link simpleCall} (Bridge's auction:
 * {@link bridgeCall}), a discard prompt's {@link simpleDiscard}, and a rejection of a Bridge
 * claim. Declarer asked for one of dummy's cards plays its first, like its own.
 * @param {Legal} legal
 * @param {number} seq
 * @param {PlayerView} view the prompt's view of the table
 * @returns {ClientMsg | null}
 */
export function answer(legal, seq, view) {
  switch (legal.type) {
    case 'play':
      return { type: 'play', card: legal.cards[0], seq };
    case 'pass':
      return { type: 'pass', cards: legal.from.slice(0, legal.count), seq };
    case 'bid':
      return { type: 'bid', tricks: simpleBid(legal, view), seq };
    case 'call':
      if (view.bridge) return { type: 'call', ...bridgeCall(legal, view), seq };
      return { type: 'call', ...simpleCall(legal, view), seq };
    case 'answer_claim':
      return { type: 'answer_claim', accept: false, seq };
    case 'discard':
      return { type: 'discard', card: simpleDiscard(legal, view), seq };
    default:
      return null;
  }
}

/**
 * Creates a table over HTTP.
 * @param {Record<string, string>} opts
 * @returns {Promise<string>}
 */
async function createTable(opts) {
  /** @type {Record<string, unknown>} */
  const options = JSON.parse(opts.options ?? '{}');
  if (opts.target) options.target = Number(opts.target);
  /** @type {Record<string, unknown>} */
  const body = { variant: opts.variant, options };
  if (opts.seed) body.seed = Number(opts.seed);
  const res = await fetch(`${opts.url}/api/tables`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`creating a table: ${res.status} ${await res.text()}`);
  /** @type {CreatedTable} */
  const created = await res.json();
  return created.id;
}

/**
 * Plays one match; resolves with the final totals.
 * @param {Record<string, string>} opts
 * @returns {Promise<number[]>}
 */
export async function play(opts) {
  const table = opts.table ?? (await createTable(opts));
  const ws = new WebSocket(`${opts.url.replace(/^http/, 'ws')}/ws`);
  /** @param {ClientMsg} msg */
  const send = (msg) => ws.send(JSON.stringify(msg));
  /** The `seq` of the prompt last answered: a repeated prompt is not answered twice. */
  let answered = -1;
  let messages = 0;
  /** This connection's seat, and whether it hosts and has set the table up yet. */
  let mySeat = -1;
  let host = false;
  let setUp = false;
  return new Promise((resolve, reject) => {
    ws.on('open', () => send({ type: 'join', table, name: opts.name, bot: true }));
    ws.on('error', reject);
    ws.on('close', () => reject(new Error('the connection closed before the match ended')));
    ws.on('message', (data) => {
      messages += 1;
      if (messages > MAX_MESSAGES) {
        ws.terminate();
        reject(new Error(`no end after ${MAX_MESSAGES} messages`));
        return;
      }
      /** @type {ServerMsg} */
      const msg = JSON.parse(data.toString());
      switch (msg.type) {
        case 'welcome':
          mySeat = msg.seat ?? -1;
          host = Boolean(msg.host);
          break;
        case 'table':
          // The host fills every empty seat (as many as the table's rules give it) and starts.
          if (host && !setUp) {
            setUp = true;
            for (const { seat, occupant } of msg.table.seats) {
              if (occupant === 'empty' && seat !== mySeat) {
                send({ type: 'add_bot', seat, strategy: 'random' });
              }
            }
            send({ type: 'start' });
          }
          break;
        case 'your_turn': {
          if (msg.seq === answered) break;
          const move = answer(msg.legal, msg.seq, msg.view);
          if (move) {
            answered = msg.seq;
            send(move);
          }
          break;
        }
        case 'error':
          // A refused move is asked again: forget the answer so the new prompt is answered.
          console.error(`refused: ${msg.code}: ${msg.message}`);
          answered = -1;
          break;
        case 'event':
          if (msg.event.kind === 'match_over') {
            console.log(`match over: winners ${msg.event.winners.join(',')}, totals ${msg.event.totals.join(',')}`);
            ws.removeAllListeners('close');
            ws.close();
            resolve(msg.event.totals);
          }
          break;
        case 'goodbye':
          reject(new Error(`the server said goodbye: ${msg.reason}`));
          break;
        default:
          break;
      }
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  play(options(process.argv.slice(2))).then(
    () => process.exit(0),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
