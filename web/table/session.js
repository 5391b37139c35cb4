// @ts-check
// The table's connection: sitting down or watching, the seat token, reconnecting, and turning
// each server message into a change of the state.
//
// Owns: the WebSocket (through ../connection.js), the seat token in storage, event numbering
// (`seq`) and the resync after each new hand. May not touch: the DOM (it sets state; the parts
// draw it), except the banner that reports the connection itself.

import { cardName } from '../cards.js';
import { t } from '../i18n/index.js';
import { refusalText } from '../lobby.js';
import { refusalWords } from './refusals.js';
import { Connection } from '../connection.js';
import { loadHostKey, loadName, saveName, saveSeat } from '../store.js';
import { applyEvent, applyYourTurn } from '../view-model.js';
import { seatName } from './names.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {import('../view-model.js').PlayerView} PlayerView */

/** Says on the page's banner how the connection is. */
class Banner {
  constructor() {
    this.el = /** @type {HTMLElement} */ (document.getElementById('banner'));
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /** @param {string} text @param {'ok' | 'warn'} kind */
  show(text, kind) {
    clearTimeout(this.timer);
    this.el.textContent = text;
    this.el.className = `banner ${kind}`;
    this.el.hidden = false;
  }

  /** Shows `text` for a few seconds. @param {string} text */
  flash(text) {
    this.show(text, 'ok');
    this.timer = setTimeout(() => this.hide(), 3000);
  }

  hide() {
    clearTimeout(this.timer);
    this.el.hidden = true;
    this.el.textContent = '';
  }
}

/** The connection of one table page. */
export class Session {
  /**
   * @param {Store} store
   * @param {{ variantsReady: () => Promise<void>, reloadVariants: () => Promise<void>, joinRefused: () => void,
   *   heard?: (event: any) => void }} hooks
   *   `variantsReady` resolves once the variant facts are known (nothing is applied before);
   *   `joinRefused` goes back to the join page after the server refused us; `heard` is told
   *   each game event once it is applied, and each prompt (as `{ kind: 'your_turn', legal }`).
   * @param {{ hear: (msg: any) => void, refused: (msg: any) => void }} [chat] where table talk
   *   (and the refusal of a chat line) goes
   */
  constructor(store, hooks, chat) {
    this.store = store;
    this.hooks = hooks;
    this.chat = chat;
    /** @type {Connection | null} */
    this.conn = null;
    this.banner = new Banner();
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.syncTimer = undefined;
    /** The last message sent. @type {any} */
    this.lastMove = null;
    /** Counts starts, so a start overtaken by a newer one never opens its socket. */
    this.generation = 0;
    /**
     * Our card drawn on the table before the server's `played` came back, and the view from
     * before it (put back if the server says otherwise). @type {{ card: string, before: PlayerView } | null}
     */
    this.pending = null;
  }

  /** The `join` that takes our seat back with the token. */
  rejoin() {
    const s = this.store.state;
    return { type: 'join', table: s.tableId, token: s.token, name: loadName() || undefined };
  }

  /** Opens the connection with `hello` (a `join` or `watch`), once the variant facts are known. */
  async start(/** @type {any} */ hello) {
    this.stop();
    this.store.set({ pendingJoin: hello, role: 'joining', welcomed: false });
    const generation = ++this.generation;
    await this.hooks.variantsReady();
    if (generation !== this.generation) return;
    const conn = new Connection({
      hello: () => {
        this.store.set({ welcomed: false, seq: null });
        const s = this.store.state;
        // After the first welcome we hold a token: use it to get the same seat back.
        return s.token && s.pendingJoin.type === 'join' ? this.rejoin() : s.pendingJoin;
      },
      message: (/** @type {any} */ msg) => this.onMessage(msg),
      status: (/** @type {boolean} */ up) => {
        if (!up) this.banner.show(t('banner.lost'), 'warn');
        else this.banner.flash(t('banner.back'));
      },
    });
    this.conn = conn;
    conn.open();
  }

  /** Closes the connection for good (until the next `start`). */
  stop() {
    this.generation += 1;
    this.conn?.close();
    this.conn = null;
  }

  /** Sends a message; says so next to the hand when the connection is down. */
  send(/** @type {any} */ msg) {
    if (!this.conn || !this.conn.send(msg)) {
      this.store.set({ error: t('banner.not_connected') });
      return false;
    }
    // Kept to word a refusal of it ("you do not hold the queen of spades").
    this.lastMove = msg;
    return true;
  }

  /**
   * Plays `card`. A card the prompt allows goes to the table at once, as the server's `played`
   * will put it (a tap answered in a frame, not after the round trip); the server's event then
   * confirms it, and anything else (a refusal, another event, a snapshot) puts the view back
   * first.
   * @param {string} card
   */
  play(card) {
    const before = this.store.state.view;
    if (!this.send({ type: 'play', card })) return;
    const s = this.store.state;
    const facts = factsOf(s);
    if (!before || !facts || s.seat === null || s.view !== before || this.pending) return;
    if (before.legal.type !== 'play' || !before.legal.cards.includes(card)) return;
    this.pending = { card, before };
    // Declarer's card from dummy is dummy's play.
    const dummy = before.bridge?.dummy;
    const seat = dummy && dummy.seat !== s.seat && dummy.cards.includes(card) ? dummy.seat : s.seat;
    this.store.set({ view: applyEvent(before, { kind: 'played', seat, card }, facts, s.seat), showLast: false, error: '' });
  }

  /** The view as it was before a card drawn ahead of the server: the server decides. */
  undoPending() {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    this.store.set({ view: pending.before });
  }

  /** Asks for the server's snapshot once the current batch of messages is in. */
  requestSync() {
    clearTimeout(this.syncTimer);
    this.syncTimer = setTimeout(() => this.conn?.send({ type: 'sync' }), 50);
  }

  /** One server message. @param {any} msg */
  onMessage(msg) {
    // Table talk is not part of the game: it goes to the chat panel, refusals included.
    if (msg.type === 'chat') return this.chat?.hear(msg);
    if (msg.type === 'error' && /^chat_/.test(msg.code)) return this.chat?.refused(msg);
    switch (msg.type) {
      case 'welcome':
        this.pending = null;
        return this.onWelcome(msg);
      case 'table': return this.store.set({ table: msg.table });
      case 'state': return this.onState(msg);
      case 'event': return this.onEvent(msg);
      case 'your_turn': return this.onYourTurn(msg);
      case 'error': return this.onError(msg);
      case 'hint': return this.store.set({ hint: { seq: msg.seq, action: msg.action } });
      case 'hosting': return this.store.set({ hostFlag: true });
      case 'invite_status':
        return this.store.set({ invites: { ...this.store.state.invites, [msg.seat]: { bot: msg.bot, status: msg.status } } });
      case 'goodbye':
        return this.banner.show(t('banner.goodbye', { reason: msg.reason }), 'warn');
      case 'storage':
        // The server cannot save: the table is paused until it can, and says when.
        return msg.saving ? this.banner.flash(t('banner.saving')) : this.banner.show(t('banner.storage'), 'warn');
      default:
    }
  }

  /** @param {any} msg */
  onWelcome(msg) {
    this.conn?.confirmed();
    const s = this.store.state;
    const seat = msg.seat ?? null;
    if (msg.token) saveSeat(s.tableId, { token: msg.token, seat: msg.seat });
    // The name as the table shows it (tidied by the server) is the one kept.
    if (typeof msg.name === 'string' && msg.name) saveName(msg.name);
    // This browser set the table up: it hosts, whoever sat down first.
    const hostKey = loadHostKey(s.tableId);
    if (hostKey && seat !== null && !msg.host) this.conn?.send({ type: 'claim_host', key: hostKey });
    this.store.set({
      welcomed: true,
      seat,
      role: seat === null ? 'spectator' : 'player',
      token: msg.token || s.token,
      hostFlag: Boolean(msg.host),
      error: '',
    });
  }

  /** A whole snapshot replaces the view. @param {any} msg */
  onState(msg) {
    this.pending = null;
    const s = this.store.state;
    const view = msg.view;
    /** @type {Partial<TableState>} */
    const patch = { view, seq: msg.seq };
    if (!s.view && view.history.length && view.phase !== 'match_over') {
      // A fresh page: do not pop up the sheet of a hand finished before we came.
      patch.dialogHand = view.history[view.history.length - 1].hand;
    }
    if (view.history.length === 0) patch.dialogHand = -1;
    if (view.legal.type !== 'pass' && s.selected.size) patch.selected = new Set();
    this.store.set(patch);
  }

  /** @param {any} msg */
  onYourTurn(msg) {
    this.undoPending();
    const s = this.store.state;
    const facts = factsOf(s);
    if (!s.view || !facts) {
      this.requestSync();
      return;
    }
    /** @type {Partial<TableState>} */
    const patch = {
      view: applyYourTurn(s.view, msg.legal, facts, s.seat),
      // A turn clock: when a computer would play this move for us.
      turnDeadline: typeof msg.timeout_ms === 'number' && msg.legal.type !== 'wait' ? Date.now() + msg.timeout_ms : null,
    };
    if ((msg.legal.type === 'pass' || msg.legal.type === 'exchange') && [...s.selected].some((c) => !msg.legal.from.includes(c))) {
      patch.selected = new Set([...s.selected].filter((c) => msg.legal.from.includes(c)));
    }
    if (s.bidChoice !== null && (msg.legal.type !== 'bid' || s.bidChoice < msg.legal.min
      || s.bidChoice > msg.legal.max || s.bidChoice === msg.legal.forbidden)) {
      patch.bidChoice = null;
    }
    // Said once per prompt: not again when the same prompt comes back after a reconnect.
    const asked = s.view.legal.type === 'wait' && msg.legal.type !== 'wait';
    this.store.set(patch);
    if (asked) this.hooks.heard?.({ kind: 'your_turn', legal: msg.legal });
  }

  /** @param {any} msg */
  onEvent(msg) {
    const s = this.store.state;
    // Before the first snapshot there is nothing to apply to: the `state` that follows the
    // opening events of a match has them all.
    if (!s.view) return;
    // Already part of the snapshot. (Gaps are normal: events private to other seats, such as
    // their deals, take numbers too.)
    if (s.seq !== null && msg.seq <= s.seq) return;
    // `prev` names the last event sent to us: newer than what we saw means one was missed.
    // Take the server's snapshot rather than apply events to a view that lacks one.
    if (s.seq !== null && typeof msg.prev === 'number' && msg.prev > s.seq) {
      this.requestSync();
      return;
    }
    const facts = factsOf(s);
    if (!facts) {
      // A variant the page has no facts for (the list was loaded before it existed): learn
      // them, then take the server's snapshot rather than guess.
      this.hooks.reloadVariants().then(() => this.requestSync());
      return;
    }
    const event = msg.event;
    const pending = this.pending;
    // (Declarer's card from dummy is played in dummy's seat.)
    const ours = event.seat === s.seat || event.seat === s.view.bridge?.dummy?.seat;
    if (pending && event.kind === 'played' && ours && event.card === pending.card) {
      // Our card, already on the table.
      this.pending = null;
      this.store.set({ seq: msg.seq, ...this.eventNotes(event) });
      this.hooks.heard?.(event);
      return;
    }
    this.undoPending();
    const view = /** @type {PlayerView} */ (this.store.state.view);
    this.store.set({ seq: msg.seq, view: applyEvent(view, event, facts, s.seat), ...this.eventNotes(event) });
    this.hooks.heard?.(event);
    if (event.kind === 'hand_started') {
      // Once per hand, ask for the server's own snapshot (after this batch of events), so
      // anything the local model got wrong is put right.
      this.requestSync();
    }
  }

  /**
   * What an event changes on the page beside the view: notices, errors, selections.
   * @param {any} event
   * @returns {Partial<TableState>}
   */
  eventNotes(event) {
    const s = this.store.state;
    switch (event.kind) {
      case 'hand_started': {
        /** @type {Partial<TableState>} */
        const patch = { selected: new Set(), bidChoice: null, showLast: false, error: '' };
        // A new match: its score sheet starts empty, and the old one's dialog goes away.
        if (event.hand === 0) Object.assign(patch, { dialogHand: -1, dialogOpenFor: null, notice: '', hands: null, handsKey: '' });
        return patch;
      }
      case 'trick_won':
        return { notice: '' };
      case 'played':
        return event.seat === s.seat ? { showLast: false, error: '' } : { showLast: false };
      case 'pass_chosen':
        return event.seat === s.seat ? { error: '' } : {};
      case 'bid':
        return event.seat === s.seat ? { error: '', bidChoice: null } : {};
      case 'bad_card':
        return { notice: t('notice.bad_card', { name: seatName(s, event.seat), card: cardName(event.card), count: event.penalty }) };
      case 'claimed':
        return { claimOpen: false, notice: '' };
      case 'claim_answered':
        // A rejection withdraws the claim: the middle says so until the next trick is taken.
        return event.accept ? {} : { notice: t('bridge.claim_rejected', { name: seatName(s, event.seat) }) };
      case 'hand_scored':
        return { claimOpen: false };
      default:
        return {};
    }
  }

  /** @param {any} msg */
  onError(msg) {
    this.undoPending();
    const s = this.store.state;
    if (msg.code === 'replaced') {
      // Another window (or device) took the seat with our token: do not fight over it, and do
      // not reconnect on our own; the page offers to take it back.
      this.stop();
      this.banner.hide();
      this.store.set({ role: 'elsewhere' });
    } else if (msg.code === 'kicked') {
      // The server's operator emptied the seat: its token is gone for good.
      this.stop();
      this.banner.hide();
      saveSeat(s.tableId, null);
      this.store.set({ role: 'none', token: null, seat: null, joinInfoError: refusalText(msg) });
      this.hooks.joinRefused();
    } else if (!s.welcomed) {
      // The join itself was refused (a stale token, a full table, no such table).
      this.stop();
      if (s.token) saveSeat(s.tableId, null);
      this.store.set({ role: 'none', joinInfoError: refusalText(msg), ...(s.token ? { token: null, seat: null } : {}) });
      this.hooks.joinRefused();
    } else {
      this.store.set({ error: refusalWords(msg, s.view, this.lastMove) });
    }
  }
}
