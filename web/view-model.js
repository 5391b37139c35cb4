// @ts-check
// The client's picture of the game: the server's PlayerView (shared/src/view.rs), kept current.
//
// Owns: how an event or a `your_turn` prompt changes a view, the same way the engine's
// `PlayerView::apply` does (tests/browser/fixtures.test.js replays the engine's recordings to
// hold it to that). May not touch: the DOM, the connection, or any rule of a variant written
// here: what differs between variants comes in `facts` (the variant's `/api/variants` entry).
//
// A `state` message replaces the whole view. Between snapshots, `event` messages are applied
// here, one by one; a `your_turn` prompt sets the legal moves. Every function is pure: it
// returns a new view and never touches its argument. Fields an event leaves alone keep their
// old objects, so the page can tell what changed by comparing references.

import { sortEngine } from './cards.js';

/**
 * The protocol's types, generated from docs/protocol.schema.json into sdk/typescript (the type
 * check of web/, tests/browser/tsconfig.web.json, reads them from there).
 * @typedef {import('../sdk/typescript/protocol.js').Card} Card two letters, rank then suit: "QS"
 * @typedef {import('../sdk/typescript/protocol.js').Legal} Legal
 * @typedef {import('../sdk/typescript/protocol.js').PlayedCard} Play
 * @typedef {import('../sdk/typescript/protocol.js').CompletedTrick} CompletedTrick
 * @typedef {import('../sdk/typescript/protocol.js').PassView} PassView
 * @typedef {import('../sdk/typescript/protocol.js').BlindView} BlindView
 * @typedef {import('../sdk/typescript/protocol.js').Event} GameEvent
 * @typedef {import('../sdk/typescript/protocol.js').VariantFacts} VariantFacts what differs
 *   between variants (contract: `/api/variants`)
 */

/**
 * The protocol's per-seat lists are tuples of up to seven seats; the client reads and builds
 * them as plain arrays (`map`, `fill`), so here each is an array of its element.
 * @template T
 * @typedef {[NonNullable<T>] extends [readonly (infer E)[]] ? Plain<E>[] | Extract<T, null | undefined>
 *   : T extends object ? { [K in keyof T]: Plain<T[K]> } : T} Plain
 */

/** @typedef {Plain<import('../sdk/typescript/protocol.js').HandResult>} HandResult */
/** The game event of kind `K`. @template {GameEvent['kind']} K @typedef {Extract<GameEvent, { kind: K }>} EventOf */
/**
 * Bridge's part of the view (shared/src/view/mod.rs `BridgeView`), not yet in the generated
 * types: the board, its contract, dummy once shown, a pending claim.
 * @typedef {{ bid: { level: number, strain: string }, doubled: 'undoubled' | 'doubled' | 'redoubled', declarer: number }} Contract
 * @typedef {{ seat: number, tricks: number, cards: Card[], accepted: number[] }} ClaimView
 * @typedef {{ board: number, vulnerability: string, contract: Contract | null, dummy: { seat: number, cards: Card[] } | null,
 *   claim: ClaimView | null, claims_rejected?: number }} BridgeView
 */
/** @typedef {Plain<import('../sdk/typescript/protocol.js').PlayerView> & { bridge?: BridgeView | null }} PlayerView */

/** @type {Legal} */
const WAIT = Object.freeze({ type: 'wait' });

/** @param {Card[]} cards @param {Card[]} remove */
function without(cards, remove) {
  const gone = new Set(remove);
  return cards.filter((c) => !gone.has(c));
}

/** `n` times `value` (0 unless given). @param {number} n @param {any} [value] @returns {any[]} */
function filled(n, value = 0) {
  return Array.from({ length: n }, () => value);
}

/** The seats of a table of `n`, in order. */
export function seats(/** @type {number} */ n) {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * Who leads the first trick, as far as the viewer can know: the dealer's left, or with
 * `first_lead: two_of_clubs` the holder of the two of clubs, known only to that seat and to
 * the seat that passed it the two. Null when the viewer cannot know.
 * @param {PlayerView} view @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {number | null}
 */
export function firstLeader(view, facts, mySeat) {
  const n = view.players;
  // Bridge: declarer's left leads, once the auction has made a contract.
  if (/** @type {string} */ (facts.first_lead) === 'declarers_left') {
    const contract = view.bridge?.contract;
    return contract ? (contract.declarer + 1) % n : null;
  }
  if (facts.first_lead !== 'two_of_clubs') return nextPlaying(view, view.dealer);
  if (mySeat === null || mySeat === undefined) return null;
  if (view.hand.includes('2C')) return mySeat;
  if (view.pass && view.pass.given.includes('2C')) return (mySeat + passSteps(view.pass.direction, n)) % n;
  return null;
}

/**
 * The seat after `seat` that plays this hand: the next one round the table, passing over the
 * seats sitting the hand out (Euchre's lone hands).
 * @param {PlayerView} view @param {number} seat
 */
export function nextPlaying(view, seat) {
  const n = view.players;
  const out = view.calling?.out ?? [];
  let next = (seat + 1) % n;
  for (let i = 0; i < n && out.includes(next); i += 1) next = (next + 1) % n;
  return next;
}

/** Seats to the left passed cards travel at a table of `n`. @param {string} direction @param {number} n */
export function passSteps(direction, n) {
  return direction === 'left' ? 1 : direction === 'right' ? n - 1 : Math.floor(n / 2);
}

/**
 * Before the first card of a hand is played: who leads, as far as the viewer can know (while
 * nobody can, the dealer's left stands in as the leader and nobody is to act).
 * @param {PlayerView} v a fresh copy, changed in place @param {VariantFacts} facts @param {number | null} mySeat
 */
function findFirstLeader(v, facts, mySeat) {
  if (v.phase !== 'playing' || v.tricks.length > 0 || v.trick.plays.length > 0) return;
  const leader = firstLeader(v, facts, mySeat);
  v.trick = { leader: leader ?? (v.dealer + 1) % v.players, plays: [] };
  v.to_act = leader === null ? [] : [leader];
}

/**
 * A new hand: everything of the last one is cleared, and a new match (hand 0) also clears the
 * score sheet.
 * @param {PlayerView} view @param {EventOf<'hand_started'>} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function handStarted(view, event, facts, mySeat) {
  const n = view.players;
  const v = { ...view };
  if (event.hand === 0) {
    Object.assign(v, { history: [], totals: filled(n), negatives: filled(n), winners: [] });
    if (facts.prize !== 0) v.pool = facts.prize;
  }
  Object.assign(v, {
    hand_number: event.hand,
    dealer: event.dealer,
    hand: [],
    hand_sizes: filled(n, event.hand_size ?? facts.hand_size),
    // A trump suit, if the variant has one, is shown by the `trump_shown` that follows.
    trump: null,
    face_up: [],
    trick: { leader: (event.dealer + 1) % n, plays: [] },
    tricks: [],
    tricks_won: filled(n),
    hearts_broken: false,
    pass: event.pass ? { direction: event.pass, given: [], received: [], waiting: seats(n) } : null,
  });
  if (facts.bidding) v.bids = filled(n, null);
  else delete v.bids;
  if (view.options.blind_nil === true) v.blind = { face_down: [], bid: [], given: [], received: [] };
  else delete v.blind;
  // Trump made by calls (Euchre) or by an auction's contract (Bridge, whose board and
  // contract come in `board` and `contract` events).
  const contract = /** @type {string} */ (facts.trump) === 'contract';
  const calls = facts.trump === 'called' || contract;
  if (calls) v.calling = { calls: [], made: null, out: [], picked_up: null, discarded: null };
  else delete v.calling;
  delete v.bridge;
  if (event.pass) {
    v.phase = 'passing';
    v.to_act = seats(n);
  } else if (calls) {
    v.phase = 'calling';
    // Bridge's auction starts with the dealer, Euchre's calls at the dealer's left.
    const first = contract ? event.dealer : (event.dealer + 1) % n;
    v.trick = { leader: first, plays: [] };
    v.to_act = [first];
  } else {
    biddingOrPlay(v, facts, mySeat);
  }
  return v;
}

/**
 * After the deal and any passing: the dealer's left bids first where players bid, else play
 * starts.
 * @param {PlayerView} v a fresh copy, changed in place @param {VariantFacts} facts @param {number | null} mySeat
 */
function biddingOrPlay(v, facts, mySeat) {
  if (v.bids) {
    v.phase = 'bidding';
    v.to_act = [(v.dealer + 1) % v.players];
  } else {
    v.phase = 'playing';
    findFirstLeader(v, facts, mySeat);
  }
}

/**
 * A seat bid; after the last bid (the dealer's) play starts.
 * @param {PlayerView} view @param {EventOf<'bid'>} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function bid(view, event, facts, mySeat) {
  // A bid in a variant without bidding (no server sends one) changes nothing.
  if (!view.bids) return view;
  const v = { ...view, bids: view.bids.map((b, s) => (s === event.seat ? event.tricks : b)) };
  if (v.bids.every((b) => b !== null)) {
    const bidder = v.blind?.bid[0];
    if (bidder !== undefined) {
      // After a blind nil the bidder's partner gives cards first.
      v.phase = 'exchanging';
      v.to_act = [(bidder + 2) % v.players];
      return v;
    }
    v.phase = 'playing';
    findFirstLeader(v, facts, mySeat);
  } else {
    v.to_act = [(event.seat + 1) % v.players];
  }
  return v;
}

/**
 * A seat chose its pass; the last choice ends the passing phase.
 * @param {PlayerView} view @param {EventOf<'pass_chosen'>} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function passChosen(view, event, facts, mySeat) {
  const v = { ...view, to_act: view.to_act.filter((s) => s !== event.seat) };
  if (!v.pass) return v;
  v.pass = { ...v.pass, waiting: v.pass.waiting.filter((s) => s !== event.seat) };
  if (v.pass.waiting.length === 0 && v.phase === 'passing') {
    // Everyone has chosen: the cards change hands and bidding or play starts.
    biddingOrPlay(v, facts, mySeat);
  }
  return v;
}

/**
 * Cards went to a partner in a blind nil exchange: the bidder gives back next, then play starts.
 * @param {PlayerView} view @param {EventOf<'exchanged'>} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function exchanged(view, event, facts, mySeat) {
  const sizes = view.hand_sizes.map((x, s) => {
    if (s === event.from) return Math.max(0, x - event.count);
    return s === event.to ? x + event.count : x;
  });
  const v = { ...view, hand_sizes: sizes };
  if (v.blind?.bid.includes(event.to)) {
    v.to_act = [event.to];
  } else {
    v.phase = 'playing';
    findFirstLeader(v, facts, mySeat);
  }
  return v;
}

/**
 * Blind nil's public events: who holds their cards face down, who looked, who bid blind.
 * @param {PlayerView} view @param {EventOf<'dealt_face_down' | 'cards_seen' | 'blind_nil'>} event
 * @returns {PlayerView}
 */
function blindChange(view, event) {
  if (!view.blind) return view;
  const b = view.blind;
  const blind = event.kind === 'dealt_face_down' ? { ...b, face_down: [...event.seats] }
    : event.kind === 'cards_seen' ? { ...b, face_down: b.face_down.filter((s) => s !== event.seat) }
      : { ...b, bid: [...b.bid, event.seat] };
  return { ...view, blind };
}

/**
 * Cards changed hands (the viewer sees only its own pass and the one it receives, or its own
 * part of a blind nil exchange).
 * @param {PlayerView} view @param {EventOf<'cards_passed'>} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function cardsPassed(view, event, facts, mySeat) {
  const v = { ...view };
  if (event.from === mySeat) {
    v.hand = without(v.hand, event.cards);
    if (v.pass) v.pass = { ...v.pass, given: [...event.cards] };
    if (v.blind) v.blind = { ...v.blind, given: [...event.cards] };
  }
  if (event.to === mySeat) {
    v.hand = sortEngine([...v.hand, ...event.cards]);
    if (v.pass) v.pass = { ...v.pass, received: [...event.cards] };
    if (v.blind) v.blind = { ...v.blind, received: [...event.cards] };
  }
  findFirstLeader(v, facts, mySeat);
  return v;
}

/**
 * A card played to the trick.
 * @param {PlayerView} view @param {EventOf<'played'>} event @param {number | null} mySeat
 * @returns {PlayerView}
 */
function played(view, event, mySeat) {
  const n = view.players;
  const v = { ...view };
  const plays = [...v.trick.plays, { seat: event.seat, card: event.card }];
  v.trick = { leader: v.trick.plays.length === 0 ? event.seat : v.trick.leader, plays };
  if (v.hand_sizes[event.seat] > 0) {
    v.hand_sizes = v.hand_sizes.map((x, s) => (s === event.seat ? x - 1 : x));
  }
  if (event.seat === mySeat) v.hand = without(v.hand, [event.card]);
  // A face-up card (the whist dealer's trump card) is face up only until it is played.
  if (v.face_up.includes(event.card)) v.face_up = without(v.face_up, [event.card]);
  if (event.card[1] === 'H') v.hearts_broken = true;
  v.phase = 'playing';
  const dummy = v.bridge?.dummy;
  if (v.bridge && dummy) v.bridge = { ...v.bridge, dummy: { ...dummy, cards: without(dummy.cards, [event.card]) } };
  const out = v.calling?.out.length ?? 0;
  v.to_act = plays.length < n - out ? [playerOf(v, nextPlaying(v, event.seat))] : [];
  return v;
}

/**
 * A trick taken: it joins the finished tricks and its winner leads the next.
 * @param {PlayerView} view @param {EventOf<'trick_won'>} event @param {VariantFacts} facts
 * @returns {PlayerView}
 */
function trickWon(view, event, facts) {
  const v = { ...view };
  v.tricks = [...v.tricks, {
    leader: v.trick.leader,
    cards: v.trick.plays.map((p) => p.card),
    winner: event.winner,
  }];
  v.tricks_won = v.tricks_won.map((x, s) => (s === event.winner ? x + 1 : x));
  v.trick = { leader: event.winner, plays: [] };
  // Where a trick is a point the moment it is won, the totals keep count as they go.
  if (facts.trick_points) v.totals = v.totals.map((x, s) => (s === event.winner ? x + 1 : x));
  v.to_act = v.hand_sizes[event.winner] > 0 ? [playerOf(v, event.winner)] : [];
  return v;
}

/**
 * A hand's line on the score sheet.
 * @param {PlayerView} view @param {EventOf<'hand_scored'>} event @param {VariantFacts} facts
 * @returns {PlayerView}
 */
function handScored(view, event, facts) {
  const { kind: _kind, ...result } = event;
  const v = {
    ...view,
    history: [...view.history, result],
    totals: [...result.totals],
    // The tricks each seat is credited with (a claim accepted gives declarer the rest).
    tricks_won: [...result.tricks],
    negatives: view.negatives.map((x, i) => x + result.penalties[i]),
    to_act: [],
  };
  if (facts.prize !== 0) v.pool = result.pool_carried + facts.prize;
  return v;
}

/**
 * The calls are over: play starts (unless a `picked_up` that follows starts the dealer's
 * discard first).
 * @param {PlayerView} v a fresh copy, changed in place @param {VariantFacts} facts @param {number | null} mySeat
 */
function callsDone(v, facts, mySeat) {
  v.phase = 'playing';
  findFirstLeader(v, facts, mySeat);
}

/**
 * A seat called (Euchre). Who calls next follows from the call: the next seat while trump is
 * not made; once it is, the defenders in turn where a defender may defend alone. A lone
 * defender, or the second defender's pass, ends the calls.
 * @param {PlayerView} view @param {any} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function called(view, event, facts, mySeat) {
  if (!view.calling) return view;
  const n = view.players;
  const { kind: _kind, ...call } = event;
  const calling = { ...view.calling, calls: [...view.calling.calls, call] };
  const v = { ...view, calling };
  const made = calling.made;
  const auction = event.call === 'pass' || event.call === 'bid' || event.call === 'double' || event.call === 'redouble';
  if (auction && !made) {
    v.to_act = [(event.seat + 1) % n];
  } else if (event.call === 'pass' && made && event.seat === (made.maker + 1) % n) {
    v.to_act = [(event.seat + 2) % n];
  } else if (event.call === 'defend_alone' && made) {
    calling.made = { ...made, defender_alone: event.seat };
    callsDone(v, facts, mySeat);
  } else if (event.call === 'pass' && made) {
    callsDone(v, facts, mySeat);
  }
  return v;
}

/**
 * Trump is made (Euchre): the defenders may still defend alone, or play starts.
 * @param {PlayerView} view @param {any} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function trumpMade(view, event, facts, mySeat) {
  const v = { ...view, trump: event.trump };
  if (!view.calling) return v;
  v.calling = { ...view.calling, made: { trump: event.trump, maker: event.maker, alone: event.alone } };
  if (view.options.defend_alone === true) v.to_act = [(event.maker + 1) % view.players];
  else callsDone(v, facts, mySeat);
  return v;
}

/**
 * The rest of a Euchre hand's making: a seat sitting out, the dealer picking up the turned card
 * and discarding (which starts play), and the viewer's own discarded card.
 * @param {PlayerView} view @param {any} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function calledHand(view, event, facts, mySeat) {
  const v = { ...view };
  const seat = event.seat;
  switch (event.kind) {
    case 'sits_out':
      // Lowest first, as the snapshot lists them.
      if (v.calling) v.calling = { ...v.calling, out: [...v.calling.out, seat].sort((a, b) => a - b) };
      findFirstLeader(v, facts, mySeat);
      break;
    case 'picked_up':
      v.face_up = without(v.face_up, [event.card]);
      v.hand_sizes = v.hand_sizes.map((x, s) => (s === seat ? x + 1 : x));
      if (seat === mySeat) v.hand = sortEngine([...v.hand, event.card]);
      if (v.calling) v.calling = { ...v.calling, picked_up: event.card };
      v.phase = 'discarding';
      v.to_act = [seat];
      // Nobody leads until the discard: the trick waits for the dealer's left.
      v.trick = { leader: (v.dealer + 1) % v.players, plays: [] };
      break;
    case 'discarded':
      v.hand_sizes = v.hand_sizes.map((x, s) => (s === seat ? Math.max(0, x - 1) : x));
      v.phase = 'playing';
      findFirstLeader(v, facts, mySeat);
      break;
    case 'discarded_card':
      if (seat === mySeat) {
        v.hand = without(v.hand, [event.card]);
        if (v.calling) v.calling = { ...v.calling, discarded: event.card };
      }
      break;
    default:
      return view;
  }
  return v;
}

/**
 * The seat that acts for `seat`'s cards: declarer for Bridge's dummy, else the seat itself.
 * @param {PlayerView} view @param {number} seat
 */
export function playerOf(view, seat) {
  const contract = view.bridge?.contract;
  if (contract && (contract.declarer + 2) % view.players === seat) return contract.declarer;
  return seat;
}

/**
 * Bridge's own events: the board, the contract (play starts, declarer's left leads), dummy
 * laid face up after the opening lead, and a claim with its answers.
 * @param {PlayerView} view @param {any} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function bridgeEvent(view, event, facts, mySeat) {
  const v = { ...view };
  const bridge = view.bridge;
  switch (event.kind) {
    case 'board':
      v.bridge = { board: event.board, vulnerability: event.vulnerability, contract: null, dummy: null, claim: null };
      return v;
    case 'contract': {
      if (bridge) v.bridge = { ...bridge, contract: event.contract };
      const strain = event.contract.bid.strain;
      v.trump = strain === 'NT' ? null : strain;
      callsDone(v, facts, mySeat);
      return v;
    }
    case 'dummy_shown':
      if (bridge) v.bridge = { ...bridge, dummy: { seat: event.seat, cards: [...event.cards] } };
      return v;
    case 'claimed': {
      const n = v.players;
      if (bridge) v.bridge = { ...bridge, claim: { seat: event.seat, tricks: event.tricks, cards: [...event.cards], accepted: [] } };
      // The defenders answer, lowest seat first.
      v.to_act = [(event.seat + 1) % n, (event.seat + 3) % n].sort((a, b) => a - b);
      return v;
    }
    case 'claim_answered': {
      if (!bridge) return view;
      if (event.accept) {
        if (bridge.claim) {
          const accepted = [...bridge.claim.accepted, event.seat];
          // Both defenders accepted: the claim is settled and the board ends.
          v.bridge = { ...bridge, claim: accepted.length === 2 ? null : { ...bridge.claim, accepted } };
        }
        v.to_act = v.to_act.filter((s) => s !== event.seat);
        return v;
      }
      // A rejection withdraws the claim (counted, as the server does): play goes on where it stopped.
      v.bridge = { ...bridge, claim: null, claims_rejected: (bridge.claims_rejected ?? 0) + 1 };
      const plays = v.trick.plays;
      const next = plays.length ? (plays[plays.length - 1].seat + 1) % v.players : v.trick.leader;
      v.to_act = [playerOf(v, next)];
      return v;
    }
    default:
      return view;
  }
}

/**
 * What one event changes in the view.
 * @param {PlayerView} view @param {GameEvent} event @param {VariantFacts} facts @param {number | null} mySeat
 * @returns {PlayerView}
 */
function change(view, event, facts, mySeat) {
  switch (event.kind) {
    case 'hand_started':
      return handStarted(view, event, facts, mySeat);
    case 'dealt': {
      const v = { ...view, hand_sizes: view.hand_sizes.map((x, s) => (s === event.seat ? event.cards.length : x)) };
      if (event.seat === mySeat) v.hand = [...event.cards];
      findFirstLeader(v, facts, mySeat);
      return v;
    }
    case 'trump_shown':
      return { ...view, trump: event.trump, face_up: [...event.cards] };
    case 'turned_up':
      return { ...view, face_up: [...event.cards] };
    case 'called':
      return called(view, event, facts, mySeat);
    case 'trump_made':
      return trumpMade(view, event, facts, mySeat);
    case 'sits_out':
    case 'picked_up':
    case 'discarded':
    case 'discarded_card':
      return calledHand(view, event, facts, mySeat);
    case 'thrown_in':
      return { ...view, to_act: [] };
    case /** @type {any} */ ('board'):
    case /** @type {any} */ ('contract'):
    case /** @type {any} */ ('dummy_shown'):
    case /** @type {any} */ ('claimed'):
    case /** @type {any} */ ('claim_answered'):
      return bridgeEvent(view, event, facts, mySeat);
    case 'pass_chosen':
      return passChosen(view, event, facts, mySeat);
    case 'cards_passed':
      return cardsPassed(view, event, facts, mySeat);
    case 'bid':
      return bid(view, event, facts, mySeat);
    case 'dealt_face_down':
    case 'cards_seen':
    case 'blind_nil':
      return blindChange(view, event);
    case 'exchanged':
      return exchanged(view, event, facts, mySeat);
    case 'played':
      return played(view, event, mySeat);
    case 'trick_won':
      return trickWon(view, event, facts);
    case 'bad_card':
      return { ...view, totals: view.totals.map((x, s) => (s === event.seat ? x + event.penalty : x)), to_act: [] };
    case 'hand_scored':
      return handScored(view, event, facts);
    case 'match_over': {
      const v = { ...view, phase: /** @type {const} */ ('match_over'), winners: [...event.winners], totals: [...event.totals], to_act: [] };
      if (v.bridge) v.bridge = { ...v.bridge, dummy: null };
      return v;
    }
    default:
      return view;
  }
}

/**
 * Applies one game event (shared/src/rules/event.rs, tagged by `kind`) to a view and returns the
 * new view, as `PlayerView::apply` does. Any event but another seat's pass choice means the game
 * moved on: the last prompt's `legal` is stale until the next `your_turn`.
 * @param {PlayerView} view
 * @param {GameEvent} event
 * @param {VariantFacts} facts the `facts` of the variant's `/api/variants` entry
 * @param {number | null} [mySeat]
 * @returns {PlayerView}
 */
export function applyEvent(view, event, facts, mySeat = view.seat ?? null) {
  const v = change(view, event, facts, mySeat);
  const othersPass = event.kind === 'pass_chosen' && event.seat !== mySeat;
  if (othersPass || v.legal.type === 'wait') return v;
  return { ...v, legal: WAIT };
}

/**
 * Applies a `your_turn` prompt, as `PlayerView::apply_legal` does: the viewer's legal moves, and
 * when asked to play, that it is their turn (leading, if the trick is empty). (`facts` is taken
 * for symmetry with `applyEvent`; no variant changes what a prompt means.)
 * @param {PlayerView} view @param {Legal} legal @param {VariantFacts} _facts
 * @param {number | null} [mySeat]
 * @returns {PlayerView}
 */
export function applyYourTurn(view, legal, _facts, mySeat = view.seat) {
  const v = { ...view, legal };
  if (legal.type === 'play' && mySeat !== null && mySeat !== undefined) {
    v.to_act = [mySeat];
    // Declarer asked for dummy's cards leads (if the trick is empty) from dummy's seat.
    const dummy = v.bridge?.dummy;
    const fromDummy = dummy && dummy.seat !== mySeat && legal.cards.length > 0 && legal.cards.every((c) => dummy.cards.includes(c));
    if (v.trick.plays.length === 0) v.trick = { ...v.trick, leader: fromDummy ? dummy.seat : mySeat };
  }
  return v;
}

/**
 * The trick to draw in the middle of the table: the one being played, or, while it is still
 * empty, the one just won (so people can see how it ended). `done` tells which.
 * @param {PlayerView} view
 */
export function trickOnTable(view) {
  if (view.trick.plays.length > 0 || view.tricks.length === 0) {
    return { plays: view.trick.plays, winner: null, done: false };
  }
  const last = view.tricks[view.tricks.length - 1];
  return { plays: completedPlays(last, view.players, view.calling?.out), winner: last.winner, done: true };
}

/**
 * The plays of a completed trick with their seats, the leader's first; the seats sitting the
 * hand out (`out`, Euchre's lone hands) play no card and are passed over.
 * @param {CompletedTrick} trick @param {number} players @param {number[]} [out]
 * @returns {Play[]}
 */
export function completedPlays(trick, players, out = []) {
  let seat = trick.leader;
  return trick.cards.map((card, i) => {
    if (i > 0) {
      seat = (seat + 1) % players;
      for (let k = 0; k < players && out.includes(seat); k += 1) seat = (seat + 1) % players;
    }
    return { seat, card };
  });
}

/**
 * How many cards each seat was dealt this hand (in variants whose hands change size, the size
 * of this hand): the cards still held, played to the trick and taken in finished tricks.
 * @param {PlayerView} view
 */
export function dealtSize(view) {
  const played = new Set(view.trick.plays.map((p) => p.seat));
  const held = view.hand_sizes.map((x, s) => x + (played.has(s) ? 1 : 0));
  return view.tricks.length + Math.max(0, ...held);
}

/**
 * Whether a bid is nil: a bid of no tricks where the table plays nil as a bid of its own (the
 * `nil` option).
 * @param {PlayerView} view @param {number | null | undefined} bid
 */
export function isNil(view, bid) {
  return bid === 0 && view.options.nil === true;
}

/**
 * Whether `seat` bid blind nil this hand.
 * @param {PlayerView} view @param {number} seat
 */
export function isBlindNil(view, seat) {
  return view.blind?.bid.includes(seat) ?? false;
}
