#!/usr/bin/env node
// @ts-check
// A small Parlor bot for Node, typed with the generated protocol.d.ts (checked by `tsc`).
// It creates a table (or joins --table), fills the other seats with built-in bots when it is
// the host, starts, and answers each prompt once, naming the prompt's `seq`: the first legal
// card or pass, and in the games where players bid (spades, ohhell) a count of its aces and
// trumps. It stops when the match is over.
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

/**
 * The answer to a prompt: a play prompt's first card, a pass prompt's first `count` cards, a
 * bid prompt's {@link simpleBid}.
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
