// The client's picture of the game: the server's PlayerView (shared/src/view.rs), kept current.
//
// A `state` message replaces the whole view. Between snapshots, `event` messages are applied
// here, one by one, with the same meaning the engine gives them; a `your_turn` prompt sets the
// legal moves. Every function is pure: it returns a new view and never touches its argument, so
// a bug here can at worst show something stale until the next snapshot.

const WAIT = Object.freeze({ type: 'wait' });

/** Cards dealt to each seat in a variant. */
export function handSize(variant) {
  return variant === 'hearts5' ? 10 : 13;
}

/** Filippa's prize added to the pool every hand. */
export const FILIPPA_PRIZE = 36;

function clone(view) {
  return structuredClone(view);
}

function without(cards, remove) {
  const gone = new Set(remove);
  return cards.filter((c) => !gone.has(c));
}

function zeros(n) {
  return Array.from({ length: n }, () => 0);
}

/** The seats of a table of `n`, in order. */
export function seats(n) {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * Who leads the first trick, as far as the viewer can know: the holder of the two of clubs in
 * hearts (known only to that holder), the dealer's left everywhere else.
 */
export function firstLeader(view, mySeat) {
  if (view.variant === 'hearts') {
    return mySeat !== null && mySeat !== undefined && view.hand.includes('2C') ? [mySeat] : [];
  }
  return [(view.dealer + 1) % view.players];
}

/** True when `seat` is asked to act now. */
export function isToAct(view, seat) {
  return seat !== null && seat !== undefined && view.to_act.includes(seat);
}

/**
 * Applies one game event (shared/src/rules/event.rs, tagged by `kind`) to a view and returns the
 * new view. Events the client cannot interpret leave the view as it was.
 */
export function applyEvent(view, event, mySeat = view.seat) {
  const v = clone(view);
  const n = v.players;
  switch (event.kind) {
    case 'hand_started': {
      if (event.hand === 0) {
        // Hands count from 0 in each match: this is a new match, with a clean score sheet.
        v.history = [];
        v.totals = zeros(n);
        v.negatives = zeros(n);
      }
      v.hand_number = event.hand;
      v.dealer = event.dealer;
      v.hand = [];
      v.hand_sizes = zeros(n).map(() => handSize(v.variant));
      v.face_up = [];
      if (v.variant !== 'hearts5' && v.variant !== 'whist') v.trump = null;
      v.trick = { leader: (event.dealer + 1) % n, plays: [] };
      v.tricks = [];
      v.tricks_won = zeros(n);
      v.hearts_broken = false;
      if (event.pass) {
        v.phase = 'passing';
        v.pass = { direction: event.pass, given: [], received: [], waiting: seats(n) };
        v.to_act = seats(n);
      } else {
        v.phase = 'playing';
        v.pass = null;
        v.to_act = firstLeader(v, mySeat);
      }
      if (v.variant === 'filippa') {
        const last = v.history[v.history.length - 1];
        v.pool = (last ? last.pool_carried : 0) + FILIPPA_PRIZE;
      }
      v.legal = WAIT;
      v.winners = [];
      return v;
    }
    case 'dealt': {
      if (event.seat === mySeat) v.hand = [...event.cards];
      v.hand_sizes[event.seat] = event.cards.length;
      if (v.phase === 'playing' && v.tricks.length === 0 && v.trick.plays.length === 0) {
        v.to_act = firstLeader(v, mySeat);
      }
      return v;
    }
    case 'trump_shown': {
      v.trump = event.trump;
      v.face_up = [...event.cards];
      return v;
    }
    case 'pass_chosen': {
      if (v.pass) v.pass.waiting = v.pass.waiting.filter((s) => s !== event.seat);
      v.to_act = v.to_act.filter((s) => s !== event.seat);
      if (event.seat === mySeat && v.legal.type === 'pass') v.legal = WAIT;
      return v;
    }
    case 'cards_passed': {
      if (event.from === mySeat) {
        v.hand = without(v.hand, event.cards);
        if (v.pass) v.pass.given = [...event.cards];
      }
      if (event.to === mySeat) {
        v.hand = [...v.hand, ...event.cards];
        if (v.pass) v.pass.received = [...event.cards];
      }
      // Passing is over once cards move: everyone has chosen.
      v.phase = 'playing';
      if (v.pass) v.pass.waiting = [];
      v.to_act = firstLeader(v, mySeat);
      if (v.legal.type === 'pass') v.legal = WAIT;
      return v;
    }
    case 'played': {
      if (v.trick.plays.length === 0) v.trick.leader = event.seat;
      v.trick.plays.push({ seat: event.seat, card: event.card });
      if (v.hand_sizes[event.seat] > 0) v.hand_sizes[event.seat] -= 1;
      if (event.seat === mySeat) {
        v.hand = without(v.hand, [event.card]);
        v.legal = WAIT;
      }
      // The whist dealer's trump card is face up only until it is played.
      v.face_up = without(v.face_up, [event.card]);
      if (event.card[1] === 'H') v.hearts_broken = true;
      v.phase = 'playing';
      v.to_act = v.trick.plays.length < n ? [(event.seat + 1) % n] : [];
      return v;
    }
    case 'trick_won': {
      v.tricks.push({
        leader: v.trick.leader,
        cards: v.trick.plays.map((p) => p.card),
        winner: event.winner,
      });
      v.tricks_won[event.winner] += 1;
      v.trick = { leader: event.winner, plays: [] };
      const left = v.hand_sizes.reduce((a, b) => a + b, 0);
      v.to_act = left > 0 ? [event.winner] : [];
      return v;
    }
    case 'bad_card': {
      v.totals[event.seat] += event.penalty;
      v.to_act = [];
      return v;
    }
    case 'hand_scored': {
      const { kind: _kind, ...result } = event;
      v.history.push(result);
      v.totals = [...result.totals];
      if (v.variant === 'filippa') {
        v.negatives = v.negatives.map((x, i) => x + (result.penalties[i] || 0));
      }
      v.to_act = [];
      v.legal = WAIT;
      return v;
    }
    case 'match_over': {
      v.phase = 'match_over';
      v.winners = [...event.winners];
      v.totals = [...event.totals];
      v.to_act = [];
      v.legal = WAIT;
      return v;
    }
    default:
      return v;
  }
}

/** Applies a `your_turn` prompt: the viewer's legal moves, and that it is their turn. */
export function applyYourTurn(view, legal, mySeat = view.seat) {
  const v = clone(view);
  v.legal = legal;
  if (legal.type === 'pass') {
    v.phase = 'passing';
    if (!v.to_act.includes(mySeat)) v.to_act.push(mySeat);
  } else if (legal.type === 'play') {
    v.phase = 'playing';
    v.to_act = [mySeat];
  }
  return v;
}

/**
 * The trick to draw in the middle of the table: the one being played, or, while it is still
 * empty, the one just won (so people can see how it ended). `done` tells which.
 */
export function trickOnTable(view) {
  if (view.trick.plays.length > 0 || view.tricks.length === 0) {
    return { plays: view.trick.plays, winner: null, done: false };
  }
  const last = view.tricks[view.tricks.length - 1];
  return { plays: completedPlays(last, view.players), winner: last.winner, done: true };
}

/** The plays of a completed trick with their seats, the leader's first. */
export function completedPlays(trick, players) {
  return trick.cards.map((card, i) => ({ seat: (trick.leader + i) % players, card }));
}

/** Seats of one whist partnership: 0 and 2 are North/South, 1 and 3 East/West. */
export function team(seat) {
  return seat % 2;
}

/** The total penalty points handed out in one hearts hand (26, or 78 after a moon with `add`). */
export function handPointsSum(result) {
  return result.points.reduce((a, b) => a + b, 0);
}
