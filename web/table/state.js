// @ts-check
// The table page's state: one object, changed only through `set`, which tells every listener.
//
// Owns: the shape of the page's state and the rule that a change is a new value (a new Set, a
// new view) rather than an edit in place, so the parts can compare references to see what
// changed. May not touch: the DOM or the network.

/**
 * @typedef {import('../view-model.js').PlayerView} PlayerView
 * @typedef {import('../view-model.js').VariantFacts} VariantFacts
 * @typedef {import('../../sdk/typescript/protocol.js').TableInfo} TableInfo
 * @typedef {import('../../sdk/typescript/protocol.js').VariantInfo} VariantInfo
 * @typedef {{ plays: import('../view-model.js').Play[], winner: number }} FinishedTrick
 * @typedef {'none' | 'joining' | 'player' | 'spectator' | 'elsewhere'} Role
 *
 * @typedef {object} TableState
 * @property {string} tableId
 * @property {TableInfo | null} table the server's TableInfo (seats, host, status)
 * @property {PlayerView | null} view
 * @property {VariantInfo[] | null} variants the `/api/variants` list, once loaded
 * @property {number | null} seat
 * @property {string | null} token
 * @property {Role} role
 * @property {boolean} welcomed
 * @property {boolean} hostFlag the welcome's `host`, until the seat list says who hosts
 * @property {number | null} seq the last event number applied
 * @property {string} error shown next to the hand (or under the seats)
 * @property {string} notice shown in the middle of the table
 * @property {Set<string>} selected the cards chosen to pass
 * @property {number | null} bidChoice the bid chosen in the bid box, not sent yet
 * @property {boolean} claimOpen declarer's claim control is open (Bridge)
 * @property {boolean} showLast the last trick is shown instead of the current one
 * @property {any} pendingJoin the join/watch message to (re)send
 * @property {number} dialogHand the hand whose score sheet was dismissed
 * @property {null | 'auto' | 'manual'} dialogOpenFor
 * @property {boolean} fourColour
 * @property {boolean} sound the "your turn" chime is wanted
 * @property {FinishedTrick | null} trickHold the finished trick kept on the table a moment
 * @property {FinishedTrick | null} lastTrick the trick finished last, of this hand or the one before (what "Last trick" shows)
 * @property {number | null} standInAsk the seat the host asked to hand to a computer, awaiting yes or no
 * @property {number | null} turnDeadline when (`Date.now()` time) a computer plays the move asked for, at a table with a turn clock
 * @property {Record<number, string>} botChoice the strength chosen per empty seat
 * @property {boolean} copied the invite link was just copied
 * @property {string} joinInfoError shown on the join page
 * @property {any[] | null} hands the server's finished hands, for downloads
 * @property {string} handsKey the score sheet line they were asked for
 * @property {boolean} handsOff the server keeps no history: no downloads
 * @property {{ seq: number, action: any } | null} hint the last suggestion the server sent
 * @property {any[]} remoteBots the registered bots online for this variant (`GET /api/bots`)
 * @property {Record<number, { bot: string, status: string }>} invites each seat's latest invitation
 */

/** @param {string} tableId @param {boolean} fourColour @param {boolean} [sound] @returns {TableState} */
export function initialState(tableId, fourColour, sound = true) {
  return {
    tableId,
    table: null,
    view: null,
    variants: null,
    seat: null,
    token: null,
    role: 'none',
    welcomed: false,
    hostFlag: false,
    seq: null,
    error: '',
    notice: '',
    selected: new Set(),
    bidChoice: null,
    claimOpen: false,
    showLast: false,
    pendingJoin: null,
    dialogHand: -1,
    dialogOpenFor: null,
    fourColour,
    sound,
    trickHold: null,
    lastTrick: null,
    turnDeadline: null,
    standInAsk: null,
    botChoice: {},
    copied: false,
    joinInfoError: '',
    hands: null,
    handsKey: '',
    handsOff: false,
    hint: null,
    remoteBots: [],
    invites: {},
  };
}

/** The store: the one state object and its listeners. */
export class Store {
  /** @param {TableState} state */
  constructor(state) {
    /** The state itself: read freely, change only with `set`. */
    this.state = state;
    /** @type {((state: TableState) => void)[]} */
    this.listeners = [];
    this.notifying = false;
    this.again = false;
  }

  /** Listens to every change. @param {(state: TableState) => void} fn */
  subscribe(fn) {
    this.listeners.push(fn);
  }

  /**
   * Changes some fields and tells the listeners, at once (the page is up to date when the
   * message handler returns). A change made by a listener is told after the current round.
   * @param {Partial<TableState>} patch
   */
  set(patch) {
    Object.assign(this.state, patch);
    if (this.notifying) {
      this.again = true;
      return;
    }
    this.notifying = true;
    try {
      do {
        this.again = false;
        for (const fn of this.listeners) fn(this.state);
      } while (this.again);
    } finally {
      this.notifying = false;
    }
  }
}

/** The `/api/variants` entry of the table's variant, once both are known. @param {TableState} s */
export function variantEntry(s) {
  const name = s.view?.variant || s.table?.variant;
  return (name && s.variants?.find((v) => v.name === name)) || null;
}

/** The variant's facts, or null while they are not known. @param {TableState} s */
export function factsOf(s) {
  return /** @type {VariantFacts | null} */ (variantEntry(s)?.facts || null);
}

/** The variant's wire name, or "". @param {TableState} s */
export function variantName(s) {
  return s.view?.variant || s.table?.variant || '';
}
