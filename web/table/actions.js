// @ts-check
// What people do on the table page: sit, watch, leave, choose and play cards, bid, add computer
// players, start, open the score sheet.
//
// Owns: turning a click into a message to the server or a change of the state, and the checks
// made before sending (exactly the pass count; a card that would cost a fine; a bid the prompt
// allows). May not touch: the DOM beyond moving the keyboard focus.

import { cardName } from '../cards.js';
import { t } from '../i18n/index.js';
import { loadName, saveFourColour, saveSeat, saveSound } from '../store.js';
import { bidRefusal } from './bid.js';
import { bridgeCallAllowed } from './auction.js';
import { callAllowed, callText } from './calls.js';
import { isDeclarer, playsDummy, tricksLeft } from './dummy.js';
import { factsOf } from './state.js';

/** @typedef {import('./state.js').Store} Store */
/** @typedef {import('./session.js').Session} Session */
/** @typedef {import('./server-info.js').TablePoll} TablePoll */

/** The page's actions, bound to its store and connection. */
export class Actions {
  /** @param {Store} store @param {Session} session @param {TablePoll} poll */
  constructor(store, session, poll) {
    this.store = store;
    this.session = session;
    this.poll = poll;
  }

  get state() {
    return this.store.state;
  }

  /** Sits in `seat` under the saved name (asks for one first). @param {number} seat */
  sit(seat) {
    const s = this.state;
    const name = loadName();
    if (!name) {
      if (s.role !== 'none') {
        // Watching without a name: back to the page that asks for one.
        this.session.stop();
        this.store.set({ role: 'none' });
        this.poll.start();
      }
      this.store.set({ joinInfoError: t('lobby.name_first') });
      document.getElementById('join-name')?.focus();
      return;
    }
    this.store.set({ joinInfoError: '' });
    this.poll.stop();
    this.session.start({ type: 'join', table: s.tableId, seat, name });
  }

  /** Watches without a seat. */
  watch() {
    this.store.set({ joinInfoError: '' });
    this.poll.stop();
    this.session.start({ type: 'watch', table: this.state.tableId });
  }

  /** Takes the seat back from another window. */
  playHere() {
    this.session.start(this.session.rejoin());
  }

  /** Gives up the seat and goes to the lobby. */
  leave() {
    this.session.send({ type: 'leave' });
    saveSeat(this.state.tableId, null);
    this.session.stop();
    location.assign('./');
  }

  /** A card of the hand was clicked: chosen for passing, or played. @param {string} card */
  clickCard(card) {
    const v = this.state.view;
    if (!v) return;
    if (v.legal.type === 'pass' || v.legal.type === 'exchange') {
      this.choose(card, v.legal.count);
      return;
    }
    if (/** @type {any} */ (v.legal).type === 'discard') {
      // The dealer's discard: one card chosen, another click chooses another.
      this.store.set({ selected: this.state.selected.has(card) ? new Set() : new Set([card]), error: '' });
      return;
    }
    if (v.legal.type === 'play' && playsDummy(this.state, v)) {
      // Declarer's turn for dummy: the card comes from dummy, not from the hand.
      this.store.set({ error: t('bridge.play_from_dummy') });
      return;
    }
    if (v.legal.type === 'play') {
      const fine = this.fineFor(card);
      if (fine !== null) {
        // Here the server would take the card and fine it: keep people from that.
        this.store.set({ error: t('play.fined', { card: cardName(card), count: -fine }) });
        return;
      }
      // Cards that look unplayable are still sent: the server explains why in words.
      this.session.play(card);
      return;
    }
    if (v.bridge?.dummy?.seat === this.state.seat && v.phase === 'playing') {
      this.store.set({ error: t('bridge.dummy_waits') });
      return;
    }
    this.store.set({
      error: v.phase === 'passing' ? t('play.passed_wait')
        : v.legal.type === 'bid' ? t('play.bid_first')
          : /** @type {any} */ (v.legal).type === 'call' || /** @type {string} */ (v.phase) === 'calling' ? t('play.after_calls')
          : /** @type {string} */ (v.phase) === 'discarding' ? t('play.after_discard')
          : v.phase === 'exchanging' ? t('play.after_exchange')
          : v.phase === 'bidding' ? t('play.after_bids') : t('play.not_your_turn'),
    });
  }

  /**
   * The points an illegal `card` would cost at this table, or null when it costs nothing (it is
   * legal, or the server refuses illegal cards and asks again).
   * @param {string} card
   */
  fineFor(card) {
    const v = this.state.view;
    const penalty = factsOf(this.state)?.bad_card_penalty;
    if (!v || v.legal.type !== 'play' || v.legal.cards.includes(card)) return null;
    if (penalty === null || penalty === undefined || v.options.bad_card !== 'penalty') return null;
    return penalty;
  }

  /** Chooses or puts back a card to pass. @param {string} card @param {number} count */
  choose(card, count) {
    const selected = new Set(this.state.selected);
    if (selected.has(card)) selected.delete(card);
    else if (selected.size < count) selected.add(card);
    else {
      this.store.set({ error: t(this.state.view?.legal.type === 'exchange' ? 'play.give_exactly' : 'play.pass_exactly', { count }) });
      return;
    }
    this.store.set({ selected, error: '' });
  }

  /** Passes the chosen cards. */
  passSelected() {
    const v = this.state.view;
    if (!v || v.legal.type !== 'pass' || this.state.selected.size !== v.legal.count) return;
    const passed = this.state.selected;
    this.session.send({ type: 'pass', cards: [...passed] });
    // The button is disabled once the choice is cleared, which would drop the keyboard focus:
    // it goes to a card that stays in the hand.
    const stays = [...document.querySelectorAll('.hand .card')].find((b) => !passed.has(/** @type {HTMLElement} */ (b).dataset.card || ''));
    if (document.activeElement?.id === 'pass-button') /** @type {HTMLElement | undefined} */ (stays)?.focus();
    this.store.set({ selected: new Set() });
  }

  /** Gives the chosen cards to the partner in a blind nil exchange. */
  exchangeSelected() {
    const v = this.state.view;
    if (!v || v.legal.type !== 'exchange' || this.state.selected.size !== v.legal.count) return;
    this.session.send({ type: 'exchange', cards: [...this.state.selected] });
    this.store.set({ selected: new Set() });
  }

  /** Bids blind nil, before looking at the cards. */
  blindNil() {
    const v = this.state.view;
    if (!v || v.legal.type !== 'blind') return;
    if (this.session.send({ type: 'blind_nil' })) this.store.set({ error: '' });
  }

  /** Looks at the face-down cards instead of bidding blind nil. */
  seeCards() {
    const v = this.state.view;
    if (!v || v.legal.type !== 'blind') return;
    if (this.session.send({ type: 'see_cards' })) this.store.set({ error: '' });
  }

  /** Chooses a bid in the bid box (sent with `bidChosen`). @param {number} tricks */
  chooseBid(tricks) {
    const v = this.state.view;
    if (!v || v.legal.type !== 'bid') return;
    const refused = bidRefusal(v, tricks);
    this.store.set(refused ? { error: refused } : { bidChoice: tricks, error: '' });
  }

  /** Bids `tricks`, if the prompt allows it; otherwise says why not. @param {number} tricks */
  bid(tricks) {
    const v = this.state.view;
    if (!v || v.legal.type !== 'bid') {
      this.store.set({ error: t('bid.not_your_turn') });
      return;
    }
    const refused = bidRefusal(v, tricks);
    if (refused) {
      this.store.set({ error: refused });
      return;
    }
    if (this.session.send({ type: 'bid', tricks })) this.store.set({ bidChoice: null, error: '' });
  }

  /** Bids the number chosen in the bid box. */
  bidChosen() {
    if (this.state.bidChoice !== null) this.bid(this.state.bidChoice);
  }

  /**
   * Makes a call while trump is made (Euchre), if the prompt allows it; otherwise says why not.
   * @param {import('./calls.js').Call} call
   */
  call(call) {
    const v = this.state.view;
    if (!v || !callAllowed(v.legal, call)) {
      this.store.set({ error: t(v?.legal.type === 'call' ? 'call.not_allowed' : 'call.not_your_call', { call: callText(call, true) }) });
      return;
    }
    if (this.session.send({ type: 'call', ...call })) this.store.set({ error: '' });
  }

  /**
   * Makes a Bridge call (a bid, pass, double or redouble), if the prompt allows it; otherwise
   * says why not.
   * @param {import('./auction.js').BridgeCall} call
   */
  bridgeCall(call) {
    const v = this.state.view;
    if (!v || !bridgeCallAllowed(v.legal, call)) {
      this.store.set({ error: t(v?.legal.type === 'call' ? 'call.not_allowed' : 'call.not_your_call', { call: callText(call, true) }) });
      return;
    }
    if (this.session.send({ type: 'call', ...call })) this.store.set({ error: '' });
  }

  /** One of dummy's cards was clicked: declarer plays it when the prompt asks for dummy's. @param {string} card */
  clickDummyCard(card) {
    const v = this.state.view;
    if (!v) return;
    if (!playsDummy(this.state, v)) {
      this.store.set({ error: t(v.legal.type === 'play' ? 'bridge.play_from_hand' : 'play.not_your_turn') });
      return;
    }
    // Cards that look unplayable are still sent: the server explains why in words.
    this.session.play(card);
  }

  /** Opens or closes declarer's claim control. @param {boolean} open */
  openClaim(open) {
    this.store.set({ claimOpen: open, error: '' });
    const target = open ? '#claim-tricks' : '#claim-button';
    /** @type {HTMLElement | null} */ (document.querySelector(target))?.focus();
  }

  /** Declarer claims `tricks` of the tricks left. @param {number} tricks */
  claim(tricks) {
    const v = this.state.view;
    if (!v || !isDeclarer(this.state, v) || tricks < 0 || tricks > tricksLeft(v)) return;
    if (this.session.send({ type: 'claim', tricks })) this.store.set({ claimOpen: false, error: '' });
  }

  /** A defender accepts or rejects declarer's claim. @param {boolean} accept */
  answerClaim(accept) {
    const v = this.state.view;
    if (!v || /** @type {any} */ (v.legal).type !== 'answer_claim') return;
    if (this.session.send({ type: 'answer_claim', accept })) this.store.set({ error: '' });
  }

  /** Discards `card` face down (the dealer, after picking up). @param {string} card */
  discard(card) {
    const v = this.state.view;
    if (!v || /** @type {any} */ (v.legal).type !== 'discard') return;
    if (this.session.send({ type: 'discard', card })) this.store.set({ selected: new Set(), error: '' });
  }

  /** Discards the card chosen in the hand. */
  discardSelected() {
    const chosen = [...this.state.selected][0];
    if (chosen) this.discard(chosen);
  }

  /** Remembers the strength chosen for an empty seat. @param {number} seat @param {string} strategy */
  chooseBot(seat, strategy) {
    this.store.set({ botChoice: { ...this.state.botChoice, [seat]: strategy } });
  }

  /** @param {number} seat @param {string} strategy */
  addBot(seat, strategy) {
    this.session.send({ type: 'add_bot', seat, strategy });
  }

  /** Invites a registered bot to an empty seat. @param {number} seat @param {string} bot */
  inviteBot(seat, bot) {
    this.session.send({ type: 'invite_bot', seat, bot });
  }

  /** @param {number} seat */
  removeBot(seat) {
    this.session.send({ type: 'remove_bot', seat });
  }

  /**
   * The host asks to let a computer play `seat` (or, with null, thinks better of it): the plate
   * asks for a yes first, and the keyboard goes to the answer.
   * @param {number | null} seat
   */
  askStandIn(seat) {
    const before = this.state.standInAsk;
    this.store.set({ standInAsk: seat });
    const target = seat === null ? `[data-stand-in="${before}"]` : '#stand-in-yes';
    /** @type {HTMLElement | null} */ (document.querySelector(target))?.focus();
  }

  /** The host lets a computer play `seat` for now (after a yes). @param {number} seat */
  standIn(seat) {
    this.session.send({ type: 'stand_in', seat });
    this.store.set({ standInAsk: null });
  }

  /** The host lets a newcomer sit in a seat given up during the match. @param {number} seat */
  openSeat(seat) {
    this.session.send({ type: 'open_seat', seat });
  }

  /** Plays one's own seat again after a computer stood in. */
  back() {
    this.session.send({ type: 'back' });
  }

  /** Starts the match (the host). */
  startMatch() {
    this.session.send({ type: 'start' });
  }

  /** Shows the last trick instead of the current one, or back. */
  toggleLast() {
    this.store.set({ showLast: !this.state.showLast });
  }

  /** @param {boolean} on */
  setFourColour(on) {
    saveFourColour(on);
    document.body.classList.toggle('four-colour', on);
    this.store.set({ fourColour: on });
  }

  /** Turns the "your turn" chime on or off, for this and later visits. @param {boolean} on */
  setSound(on) {
    saveSound(on);
    this.store.set({ sound: on });
  }

  /** Opens the score sheet dialog. @param {boolean} manual asked for, rather than at a hand's end */
  openScores(manual) {
    this.store.set({ dialogOpenFor: manual ? 'manual' : 'auto' });
  }

  /** Closes the score sheet; it opens by itself again at the next hand's end. */
  closeScores() {
    const v = this.state.view;
    const lastHand = v?.history[v.history.length - 1];
    this.store.set({ dialogOpenFor: null, ...(lastHand ? { dialogHand: lastHand.hand } : {}) });
  }

  /** Copies the invite link, saying so on the button for two seconds. @param {string} url */
  async copyInvite(url) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      const input = /** @type {HTMLInputElement | null} */ (document.getElementById('invite-link'));
      input?.select();
      document.execCommand?.('copy');
    }
    this.store.set({ copied: true });
    setTimeout(() => this.store.set({ copied: false }), 2000);
  }
}
