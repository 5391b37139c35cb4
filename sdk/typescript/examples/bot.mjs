#!/usr/bin/env node
// @ts-check
// A small Parlor bot for Node, typed with the generated protocol.d.ts (checked by `tsc`).
// It creates a table (or joins --table), fills the other seats with built-in bots when it is
// the host, starts, and answers each prompt once with the first legal move, naming the
// prompt's `seq`. It stops when the match is over.
//
//   node examples/bot.mjs --url http://127.0.0.1:8080 [--table ID] [--variant hearts]
//                         [--target 20] [--seed 7] [--name node-bot]

import WebSocket from 'ws';

/** @typedef {import('parlor-protocol').ClientMsg} ClientMsg */
/** @typedef {import('parlor-protocol').ServerMsg} ServerMsg */
/** @typedef {import('parlor-protocol').Legal} Legal */
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
 * The first legal move: a play prompt's first card, a pass prompt's first `count` cards.
 * @param {Legal} legal
 * @param {number} seq
 * @returns {ClientMsg | null}
 */
export function firstLegal(legal, seq) {
  switch (legal.type) {
    case 'play':
      return { type: 'play', card: legal.cards[0], seq };
    case 'pass':
      return { type: 'pass', cards: legal.from.slice(0, legal.count), seq };
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
  const body = { variant: opts.variant, options: {} };
  if (opts.target) body.options = { target: Number(opts.target) };
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
          if (msg.host) {
            for (let seat = 0; seat < (opts.variant === 'hearts5' ? 5 : 4); seat++) {
              if (seat !== msg.seat) send({ type: 'add_bot', seat, strategy: 'random' });
            }
            send({ type: 'start' });
          }
          break;
        case 'your_turn': {
          if (msg.seq === answered) break;
          const move = firstLegal(msg.legal, msg.seq);
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
