// @ts-check
// The table page `/t/{id}`: puts its pieces together. The pieces live in table/:
//
// - state.js: the page's state and the store that tells the parts when it changes;
// - session.js: the connection (welcome, seat token, reconnect, sync) turning messages into state;
// - server-info.js: the variants with their facts, and the seat list polled before sitting down;
// - actions.js: what clicks do; downloads.js: finished hands to download;
// - matches.js: the matches played at this table and a chart of running totals;
// - howto.js: "How to play", the game explained in a few lines;
// - hint.js: the "Suggest a card" button and the suggested cards marked in the hand;
// - motion.js: cards moving and the finished trick kept a moment; cues.js: "your turn" when the
//   page is in the background (with sound.js);
// - layout.js: which parts show; join.js, head.js, seats.js, felt.js, hand.js, score-sheet.js,
//   dialog.js, invite.js: the parts, each drawing only when what it shows changed;
// - chat.js: table talk, a button in the head opening a panel over the page;
// - remote-bots.js: the registered bots online for the host's seat menu, and invitations' states.
//
// Owns: the wiring and the start of the page (a saved seat, a seat asked for from the lobby, or
// the invite page). May not touch: anything the pieces own.

import { allowSound } from './sound.js';
import { loadFourColour, loadName, loadSeat, loadSound } from './store.js';
import { Actions } from './table/actions.js';
import { chatPanel } from './table/chat.js';
import { scoreDialog } from './table/dialog.js';
import { Downloads } from './table/downloads.js';
import { hintButton } from './table/hint.js';
import { howToButton } from './table/howto.js';
import { matchHistory } from './table/matches.js';
import { turnCues } from './table/cues.js';
import { Announcer, eventWords, promptWords } from './table/announcer.js';
import { turnClock } from './table/clock.js';
import { tableLayout } from './table/layout.js';
import { trickHolder } from './table/motion.js';
import { TablePoll, Variants } from './table/server-info.js';
import { remoteBotPoll } from './table/remote-bots.js';
import { Session } from './table/session.js';
import { initialState, Store, variantEntry } from './table/state.js';

/** Shows the table `tableId` in `root`. @param {HTMLElement} root @param {string} tableId */
export function showTable(root, tableId) {
  const store = new Store(initialState(tableId, loadFourColour(), loadSound()));
  const variants = new Variants(store);
  const poll = new TablePoll(store);
  const chat = chatPanel((msg) => session.send(msg));
  const announcer = new Announcer();
  const session = new Session(store, {
    variantsReady: () => variants.ready(),
    reloadVariants: () => variants.reload(),
    joinRefused: () => poll.start(),
    heard: (event) => announcer.say(event.kind === 'your_turn' ? promptWords(store.state, event.legal) : eventWords(store.state, event)),
  }, chat);
  const actions = new Actions(store, session, poll);
  new Downloads(store);
  store.subscribe(trickHolder(store));
  store.subscribe(tableLayout(root, actions, announcer));
  store.subscribe(turnClock(announcer));
  // After the layout: the chat button docks into the head the layout just drew.
  store.subscribe(chat.update);
  store.subscribe(turnCues());
  allowSound();
  store.subscribe(scoreDialog(store, actions).update);
  // After the layout: it adds its button to the hand's row and marks the hand's cards.
  store.subscribe(hintButton(store, session));
  store.subscribe(howToButton());
  store.subscribe(remoteBotPoll(store));
  // After the score dialog: it adds the running totals and earlier matches under the sheet.
  store.subscribe(matchHistory());
  let reloaded = '';
  store.subscribe((s) => {
    // A table of a variant the list did not have when it was loaded: load it again, once.
    const name = s.view?.variant || s.table?.variant;
    if (name && s.variants && !variantEntry(s) && reloaded !== name) {
      reloaded = name;
      variants.reload();
    }
  });
  document.body.classList.toggle('four-colour', store.state.fourColour);
  // Exposed for debugging in the console and for tests that want to look at the model.
  Object.assign(window, { __parlor: store.state });

  variants.ready();
  const saved = loadSeat(tableId);
  if (saved) {
    store.set({ token: saved.token, seat: saved.seat });
    session.start({ type: 'join', table: tableId, token: saved.token, name: loadName() || undefined });
  } else if (sessionStorage.getItem(`parlor.autosit.${tableId}`)) {
    sessionStorage.removeItem(`parlor.autosit.${tableId}`);
    session.start({ type: 'join', table: tableId, name: loadName() || undefined });
  } else {
    store.set({});
    poll.start();
  }
}
