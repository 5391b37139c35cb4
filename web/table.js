// The table page `/t/{id}`: seats, the game in progress, the score sheet.
//
// State machine: `welcome` gives our seat and token; `table` replaces the seat list; `state`
// replaces the whole view; `event` is applied to the view (view-model.js); `your_turn` sets the
// legal moves; `error` is shown next to the hand. After a lost connection the seat token brings
// us back and the server sends a fresh snapshot.

import { cardName, cardShort, rankLabel, sortHand, suitLabel, suitOf, SUIT_SYMBOLS } from './cards.js';
import { Connection } from './connection.js';
import { h, replaceChildren } from './dom.js';
import { errorText, variantTitle } from './lobby.js';
import { loadFourColour, loadName, loadSeat, saveFourColour, saveName, saveSeat } from './store.js';
import { applyEvent, applyYourTurn, completedPlays, trickOnTable } from './view-model.js';

const POSITIONS = {
  4: ['bottom', 'left', 'top', 'right'],
  5: ['bottom', 'left', 'top-left', 'top-right', 'right'],
};

const WHIST_SEATS = ['North', 'East', 'South', 'West'];
const DIRECTION_TEXT = { left: 'left', right: 'right', across: 'across' };
const STRATEGY_TEXT = {
  random: 'Beginner',
  heuristic: 'Good',
  strong: 'Strong',
  uva181: 'Classic (UVa 181 rules)',
};

/** Friendly names for computer players, by seat. */
const BOT_NAMES = ['Ada', 'Bert', 'Cleo', 'Dido', 'Emil'];

/** How strong a built-in bot is, from its seat name ("heuristic bot"). */
function botStrength(info) {
  const m = /^(\S+) bot$/.exec(info?.name || '');
  return m ? (STRATEGY_TEXT[m[1]] || m[1]).toLowerCase() : '';
}

/** Shows the table `tableId` in `root`. */
export function showTable(root, tableId) {
  const S = {
    tableId,
    table: null, // TableInfo
    view: null, // PlayerView
    variantInfo: null, // entry of /api/variants
    seat: null,
    token: null,
    role: 'none', // 'none' | 'joining' | 'player' | 'spectator'
    welcomed: false,
    seq: null,
    error: '',
    notice: '',
    selected: new Set(),
    showLast: false,
    pendingJoin: null, // the join/watch message to (re)send
    dialogHand: -1, // hand number whose score sheet was dismissed
    dialogOpenFor: null,
    fourColour: loadFourColour(),
    botChoice: {},
    copied: false,
    joinInfoError: '',
    hands: null, // the server's finished hands (`/api/tables/{id}/hands`), for downloads
    handsKey: '', // the score sheet line they were asked for
    handsOff: false, // the server keeps no history: no downloads
  };

  const banner = document.getElementById('banner');
  const dialog = document.getElementById('score-dialog');
  let bannerTimer = null;
  let conn = null;
  let pollTimer = null;
  const cardButtons = new Map(); // card -> its button in the hand
  // One name box for the page's lifetime: the join page is drawn again when the seats arrive,
  // on every poll and when the variants load, and a new box would lose what was typed so far
  // (its value and the keyboard focus) before "Sit here" reads it.
  let joinNameInput = null;

  document.body.classList.toggle('four-colour', S.fourColour);

  const saved = loadSeat(tableId);
  if (saved) {
    S.token = saved.token;
    S.seat = saved.seat;
    startConnection({ type: 'join', table: tableId, token: saved.token, name: loadName() || undefined });
  } else if (sessionStorage.getItem(`parlor.autosit.${tableId}`)) {
    sessionStorage.removeItem(`parlor.autosit.${tableId}`);
    startConnection({ type: 'join', table: tableId, name: loadName() || undefined });
  } else {
    pollTableInfo();
  }
  loadVariantInfo();
  render();

  // ---- talking to the server -------------------------------------------------------------

  function startConnection(hello) {
    clearInterval(pollTimer);
    S.pendingJoin = hello;
    S.role = 'joining';
    S.welcomed = false;
    if (conn) conn.close();
    conn = new Connection({
      hello: () => {
        S.welcomed = false;
        S.seq = null;
        // After the first welcome we hold a token: use it to get the same seat back.
        if (S.token && S.pendingJoin.type === 'join') {
          return { type: 'join', table: tableId, token: S.token, name: loadName() || undefined };
        }
        return S.pendingJoin;
      },
      message: onMessage,
      status: onStatus,
    });
    conn.open();
  }

  function send(msg) {
    if (!conn || !conn.send(msg)) {
      S.error = 'Not connected right now: wait a moment and try again.';
      render();
      return false;
    }
    return true;
  }

  function onStatus(up, wasDown) {
    clearTimeout(bannerTimer);
    if (!up) {
      showBanner('Connection lost. Reconnecting…', 'warn');
    } else if (wasDown) {
      showBanner('Connected again.', 'ok');
      bannerTimer = setTimeout(() => hideBanner(), 3000);
    }
  }

  function showBanner(text, kind) {
    banner.textContent = text;
    banner.className = `banner ${kind}`;
    banner.hidden = false;
  }

  function hideBanner() {
    banner.hidden = true;
    banner.textContent = '';
  }

  function onMessage(msg) {
    switch (msg.type) {
      case 'welcome':
        conn?.confirmed();
        S.welcomed = true;
        S.seat = msg.seat ?? null;
        S.role = msg.seat === null || msg.seat === undefined ? 'spectator' : 'player';
        if (msg.token) {
          S.token = msg.token;
          saveSeat(tableId, { token: msg.token, seat: msg.seat });
        }
        S.hostFlag = msg.host;
        S.error = '';
        break;
      case 'table':
        S.table = msg.table;
        if (!S.variantInfo) loadVariantInfo();
        break;
      case 'state':
        if (!S.view && msg.view.history.length && msg.view.phase !== 'match_over') {
          // A fresh page: do not pop up the sheet of a hand finished before we came.
          S.dialogHand = msg.view.history[msg.view.history.length - 1].hand;
        }
        if (msg.view.history.length === 0) S.dialogHand = -1;
        S.view = msg.view;
        S.seq = msg.seq;
        if (msg.view.legal.type !== 'pass') S.selected.clear();
        break;
      case 'event':
        onEvent(msg);
        break;
      case 'your_turn':
        if (!S.view) requestSync();
        if (S.view) {
          S.view = applyYourTurn(S.view, msg.legal, S.seat);
          if (msg.legal.type === 'pass') {
            for (const c of [...S.selected]) if (!msg.legal.from.includes(c)) S.selected.delete(c);
          }
        }
        break;
      case 'error':
        if (!S.welcomed) {
          // The join itself was refused (a stale token, a full table, no such table).
          conn?.close();
          conn = null;
          if (S.token) {
            saveSeat(tableId, null);
            S.token = null;
            S.seat = null;
          }
          S.role = 'none';
          S.joinInfoError = msg.message;
          pollTableInfo();
        } else if (msg.code === 'bad_token') {
          // The seat was taken back with our token by another window: do not fight over it.
          conn?.close();
          conn = null;
          S.role = 'elsewhere';
          hideBanner();
        } else {
          S.error = msg.message;
        }
        break;
      case 'goodbye':
        showBanner(`The server is going away (${msg.reason}). Reconnecting when it is back…`, 'warn');
        break;
      default:
        return;
    }
    render();
  }

  function onEvent(msg) {
    // Before the first snapshot there is nothing to apply to: the `state` that follows the
    // opening events of a match has them all.
    if (!S.view) return;
    // Already part of the snapshot. (Gaps are normal: events private to other seats, such as
    // their deals, take numbers too.)
    if (S.seq !== null && msg.seq <= S.seq) return;
    S.seq = msg.seq;
    const event = msg.event;
    S.view = applyEvent(S.view, event, S.seat);
    switch (event.kind) {
      case 'hand_started':
        // Once per hand, ask for the server's own snapshot (after this batch of events), so
        // anything the local model got wrong is put right.
        requestSync();
        if (event.hand === 0) {
          // A new match: its score sheet starts empty, and the old one's dialog goes away.
          S.dialogHand = -1;
          S.dialogOpenFor = null;
          S.notice = '';
          S.hands = null;
          S.handsKey = '';
        }
        S.selected.clear();
        S.showLast = false;
        S.error = '';
        break;
      case 'trick_won':
        S.notice = '';
        break;
      case 'played':
        S.showLast = false;
        if (event.seat === S.seat) S.error = '';
        break;
      case 'pass_chosen':
        if (event.seat === S.seat) S.error = '';
        break;
      case 'bad_card':
        S.notice = `${seatName(event.seat)} played ${cardName(event.card)}, which was not allowed: ${event.penalty} points and a new deal.`;
        break;
      default:
        break;
    }
  }

  let syncTimer = null;
  function requestSync() {
    clearTimeout(syncTimer);
    syncTimer = setTimeout(() => conn?.send({ type: 'sync' }), 50);
  }

  async function loadVariantInfo() {
    try {
      const res = await fetch('/api/variants');
      if (!res.ok) return;
      const all = await res.json();
      const name = S.table?.variant || S.view?.variant;
      if (name) S.variantInfo = all.find((v) => v.name === name) || null;
      else S.allVariants = all;
      render();
    } catch {
      // Bots can still be added with the default strength.
    }
  }

  function pollTableInfo() {
    clearInterval(pollTimer);
    const load = async () => {
      try {
        const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}`);
        // Once seated or watching, the socket's `table` messages are the truth: an answer to a
        // request made before that is stale and must not overwrite them.
        if (S.role !== 'none') return;
        if (!res.ok) {
          S.joinInfoError = res.status === 404 ? 'There is no table with this link. It may have closed.' : await errorText(res);
          S.table = null;
        } else {
          const info = await res.json();
          if (S.role !== 'none') return;
          S.table = info;
          if (S.joinInfoError && S.joinInfoError.startsWith('There is no table')) S.joinInfoError = '';
          if (!S.variantInfo) loadVariantInfo();
        }
      } catch {
        S.joinInfoError = 'The server cannot be reached. Trying again…';
      }
      if (S.role === 'none') render();
    };
    load();
    pollTimer = setInterval(() => {
      if (S.role !== 'none') clearInterval(pollTimer);
      else load();
    }, 3000);
  }

  // ---- finished hands to download ---------------------------------------------------------

  /** Asks the server for the table's finished hands once the score sheet gains a line. */
  function refreshHands() {
    const last = S.view?.history[S.view.history.length - 1];
    if (S.handsOff || !last) return;
    const key = `${S.view.history.length}:${last.hand}:${last.totals.join(',')}`;
    if (key === S.handsKey) return;
    S.handsKey = key;
    loadHands(key, 0);
  }

  async function loadHands(key, attempt) {
    let list = null;
    try {
      const res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hands`);
      if (res.ok) {
        list = await res.json();
      } else {
        const body = await res.json().catch(() => ({}));
        // A server started with --no-store keeps no hands: the feature just is not there.
        if (body.code === 'no_storage') S.handsOff = true;
      }
    } catch {
      // Offline for a moment: the next line of the score sheet asks again.
    }
    if (key !== S.handsKey || !Array.isArray(list)) return;
    S.hands = list;
    const last = S.view?.history[S.view.history.length - 1];
    // The log is written before its events are sent, so this is rare; ask again a bit later.
    if (last && !storedHand(last) && attempt < 3) setTimeout(() => loadHands(key, attempt + 1), 1000);
    render();
  }

  /** The server's entry for a line of the score sheet: a hand of the latest match, same totals. */
  function storedHand(row) {
    const list = S.hands || [];
    const latest = list[list.length - 1];
    if (!latest) return null;
    return list.find((e) => e.match_no === latest.match_no && e.hand === row.hand
      && e.totals.join(',') === row.totals.join(',')) || null;
  }

  function downloadLink(row, where) {
    const stored = storedHand(row);
    if (!stored) return null;
    return h('a', {
      class: 'download', href: stored.url, download: `parlor-${tableId}-hand-${stored.number + 1}.json`,
      'data-hand': row.hand, 'data-focus': `download-${where}-${row.hand}`,
      title: 'Every card of the hand, face up, as a JSON file',
    }, h('span', { 'aria-hidden': 'true' }, '⤓ '), 'Download', h('span', { class: 'sr-only' }, ` hand ${row.hand + 1}`));
  }

  // ---- actions -----------------------------------------------------------------------------

  function sit(seat) {
    const name = loadName();
    if (!name) {
      if (S.role !== 'none') {
        // Watching without a name: back to the page that asks for one.
        conn?.close();
        conn = null;
        S.role = 'none';
        pollTableInfo();
      }
      S.joinInfoError = 'Please tell us your name first.';
      render();
      document.getElementById('join-name')?.focus();
      return;
    }
    S.joinInfoError = '';
    startConnection({ type: 'join', table: tableId, seat, name });
    render();
  }

  function watch() {
    S.joinInfoError = '';
    startConnection({ type: 'watch', table: tableId });
    render();
  }

  function leave() {
    send({ type: 'leave' });
    saveSeat(tableId, null);
    conn?.close();
    location.assign('/');
  }

  function clickCard(card) {
    const v = S.view;
    if (!v) return;
    if (v.legal.type === 'pass') {
      if (S.selected.has(card)) S.selected.delete(card);
      else if (S.selected.size < v.legal.count) S.selected.add(card);
      else {
        S.error = `You pass exactly ${v.legal.count} cards: click a chosen card to put it back first.`;
        render();
        return;
      }
      S.error = '';
      render();
      return;
    }
    if (v.legal.type === 'play') {
      if (!v.legal.cards.includes(card) && v.variant === 'tricks' && v.options.bad_card !== 'reject') {
        // Here the server would take the card and fine it 100 points: keep people from that.
        S.error = `${cardName(card)} may not be played now (follow suit if you can). At this table an illegal card costs 100 points, so it was not played.`;
        render();
        return;
      }
      // Cards that look unplayable are still sent: the server explains why in words.
      send({ type: 'play', card });
      return;
    }
    S.error = v.phase === 'passing' ? 'You have passed your cards: waiting for the others.' : 'It is not your turn yet.';
    render();
  }

  function passSelected() {
    const v = S.view;
    if (!v || v.legal.type !== 'pass' || S.selected.size !== v.legal.count) return;
    send({ type: 'pass', cards: [...S.selected] });
    S.selected.clear();
  }

  // ---- helpers -----------------------------------------------------------------------------

  function players() {
    return S.view?.players || S.table?.seats.length || S.variantInfo?.players || 4;
  }

  function variant() {
    return S.view?.variant || S.table?.variant || '';
  }

  function seatInfo(seat) {
    return S.table?.seats.find((s) => s.seat === seat) || null;
  }

  function seatName(seat) {
    if (seat === S.seat && S.role === 'player') return 'You';
    const info = seatInfo(seat);
    if (info?.occupant === 'bot') return BOT_NAMES[seat] || `Computer ${seat + 1}`;
    if (info?.name) return info.name;
    if (variant() === 'whist') return WHIST_SEATS[seat];
    return `Seat ${seat + 1}`;
  }

  function isHost() {
    if (S.role !== 'player') return false;
    if (S.table && S.table.host !== null && S.table.host !== undefined) return S.table.host === S.seat;
    return Boolean(S.hostFlag);
  }

  function position(seat) {
    const n = players();
    const base = S.role === 'player' && S.seat !== null ? S.seat : 0;
    return (POSITIONS[n] || POSITIONS[4])[(seat - base + n) % n];
  }

  function cardFace(card, extra = {}) {
    const suit = suitOf(card);
    return [
      h('span', { class: 'corner', 'aria-hidden': 'true' }, h('span', { class: 'rank' }, rankLabel(card)), h('span', { class: 'pip' }, SUIT_SYMBOLS[suit])),
      h('span', { class: 'big-pip', 'aria-hidden': 'true' }, SUIT_SYMBOLS[suit]),
      extra.label ? h('span', { class: 'sr-only' }, extra.label) : null,
    ];
  }

  function staticCard(card, label, cls = '') {
    return h('div', { class: `card static suit-${suitOf(card)} ${cls}`, role: 'img', 'aria-label': label, title: cardName(card) }, cardFace(card));
  }

  // ---- rendering ---------------------------------------------------------------------------

  function render() {
    const title = variantTitle(variant()) || 'Table';
    // The tab's title says when it is your move, for people looking at another tab.
    const yourMove = S.role === 'player' && S.view && S.view.legal.type !== 'wait';
    document.title = `${yourMove ? '▶ Your turn · ' : ''}${title} · Parlor`;
    if (S.role === 'none' || S.role === 'joining' || S.role === 'elsewhere') {
      if (dialog?.open) dialog.close();
    }
    if (S.role === 'none' || S.role === 'joining') {
      // Building the page moves the name box into the new tree, out of the document, which
      // takes the focus from it: give the focus back to someone typing there.
      const typing = joinNameInput !== null && document.activeElement === joinNameInput;
      replaceChildren(root, renderJoin());
      if (typing && joinNameInput.isConnected) joinNameInput.focus();
      return;
    }
    if (S.role === 'elsewhere') {
      replaceChildren(root, h('div', { class: 'join-page' }, h('section', { class: 'panel', role: 'alert' },
        h('h2', {}, 'This seat is open in another window'),
        h('p', {}, 'You are playing at this table in another tab or on another device.'),
        h('div', { class: 'row' },
          h('button', {
            type: 'button', class: 'primary', id: 'play-here',
            onclick: () => startConnection({ type: 'join', table: tableId, token: S.token, name: loadName() || undefined }),
          }, 'Play here instead'),
          h('a', { class: 'button link', href: '/' }, 'Back to the lobby')))));
      return;
    }
    const status = S.table?.status;
    const inGame = S.view && (status === 'playing' || status === 'finished' || !S.table);
    replaceChildren(root,
      h('div', { class: `table-page variant-${variant()}` },
        renderHead(),
        !inGame || status === 'waiting' || status === 'finished' ? renderSeats() : null,
        inGame ? renderGame() : null,
        status === 'playing' ? h('section', { class: 'panel invite-bottom' }, renderInvite()) : null,
      ));
    renderDialog();
    refreshHands();
  }

  function inviteUrl() {
    return `${location.origin}/t/${encodeURIComponent(tableId)}`;
  }

  function renderInvite() {
    const url = inviteUrl();
    return h('div', { class: 'invite' },
      h('label', { for: 'invite-link' }, 'Invite link'),
      h('div', { class: 'row' },
        h('input', { id: 'invite-link', readonly: true, value: url, onfocus: (e) => e.target.select() }),
        h('button', {
          type: 'button', id: 'copy-invite',
          onclick: async () => {
            try {
              await navigator.clipboard.writeText(url);
            } catch {
              const input = document.getElementById('invite-link');
              input.select();
              document.execCommand?.('copy');
            }
            S.copied = true;
            render();
            setTimeout(() => { S.copied = false; render(); }, 2000);
          },
        }, S.copied ? 'Copied!' : 'Copy link')),
      h('p', { class: 'hint' }, 'Send this link to the people you want to play with.'));
  }

  function renderJoin() {
    const t = S.table;
    if (!joinNameInput) {
      joinNameInput = h('input', {
        id: 'join-name', value: loadName(), maxlength: 24, autocomplete: 'nickname', placeholder: 'e.g. Grandma',
        onchange: (e) => { saveName(e.target.value); },
      });
    }
    const nameInput = joinNameInput;
    const seatsList = t
      ? h('ul', { class: 'seat-list' }, t.seats.map((s) => h('li', { class: 'seat-row' },
        h('span', { class: 'seat-label' }, variant() === 'whist' ? WHIST_SEATS[s.seat] : `Seat ${s.seat + 1}`),
        h('span', { class: 'seat-who' }, occupantText(s)),
        s.occupant === 'empty' && t.status !== 'finished'
          ? h('button', { type: 'button', class: 'primary', 'data-seat': s.seat, onclick: () => { saveName(nameInput.value); sit(s.seat); } }, 'Sit here')
          : null)))
      : null;
    return h('div', { class: 'join-page' },
      h('section', { class: 'panel' },
        h('h2', {}, t ? `Join a table of ${variantTitle(t.variant)}` : 'Joining the table…'),
        S.role === 'joining' ? h('p', { class: 'hint', role: 'status' }, 'Connecting…') : null,
        S.role === 'none' ? [
          h('div', { class: 'option' }, h('label', { for: 'join-name' }, 'Your name, as the others will see it'), nameInput),
          seatsList,
          h('div', { class: 'row' },
            h('button', { type: 'button', id: 'watch-button', onclick: watch }, 'Just watch'),
            h('a', { class: 'button link', href: '/' }, 'Back to the lobby')),
        ] : null,
        S.joinInfoError ? h('p', { class: 'error', role: 'alert' }, S.joinInfoError) : null));
  }

  function occupantText(s) {
    if (s.occupant === 'empty') return s.bot_playing ? 'Empty (a computer plays for now)' : 'Empty';
    if (s.occupant === 'bot') {
      const strength = botStrength(s);
      return `${BOT_NAMES[s.seat] || 'Computer'} (computer${strength ? `, ${strength}` : ''})`;
    }
    const name = s.name || (s.occupant === 'human' ? 'A player' : 'Bot');
    const parts = [name];
    if (s.occupant === 'bot') parts.push('(computer)');
    if (s.occupant === 'remote_bot') parts.push('(program)');
    if (s.occupant === 'human' && !s.connected) parts.push('(away)');
    return parts.join(' ');
  }

  function renderHead() {
    const v = S.view;
    const facts = [];
    if (v) {
      facts.push(h('span', { class: 'fact' }, `Hand ${v.hand_number + 1}`));
      if (v.trump) {
        facts.push(h('span', { class: `fact trump suit-${v.trump}`, id: 'trump' }, 'Trump: ', h('strong', {}, suitLabel(v.trump))));
      }
      if (v.variant === 'whist' && v.face_up.length) {
        facts.push(h('span', { class: 'fact face-up', id: 'face-up' }, `${seatName(v.dealer)} (dealer) shows `,
          v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), h('span', { class: 'sr-only' }, ` (${cardName(c)})`)))));
      } else if (v.variant === 'whist') {
        facts.push(h('span', { class: 'fact' }, `Dealer: ${seatName(v.dealer)}`));
      }
      if (v.variant === 'whist') {
        const won = (t) => v.tricks_won[t] + v.tricks_won[t + 2];
        facts.push(h('span', { class: 'fact', id: 'team-tricks' }, 'Tricks: ',
          h('strong', { class: 'team-0-text' }, `North–South ${won(0)}`), ' · ',
          h('strong', { class: 'team-1-text' }, `East–West ${won(1)}`)));
      }
      if (v.variant === 'hearts5' && v.face_up.length) {
        facts.push(h('span', { class: 'fact face-up', id: 'face-up' }, 'Left over: ',
          v.face_up.map((c) => h('strong', { class: `suit-${suitOf(c)}` }, cardShort(c), ' '))));
      }
      if (v.variant === 'filippa') facts.push(h('span', { class: 'fact', id: 'pool' }, 'Prize pool: ', h('strong', {}, String(v.pool))));
      if (v.variant === 'hearts' || v.variant === 'filippa') {
        facts.push(h('span', { class: 'fact' }, v.hearts_broken ? 'Hearts broken' : 'Hearts not broken'));
      }
    }
    return h('section', { class: 'table-head' },
      h('div', { class: 'title-row' },
        h('h1', {}, variantTitle(variant())),
        S.role === 'spectator' ? h('span', { class: 'badge watch', id: 'spectating' }, 'You are watching') : null,
        h('div', { class: 'facts' }, facts)),
      S.table?.status === 'playing' ? null : renderInvite());
  }

  function renderSeats() {
    const t = S.table;
    if (!t) return h('section', { class: 'panel' }, h('p', { class: 'hint' }, 'Loading the table…'));
    const host = isHost();
    const strategies = S.variantInfo?.strategies || ['random', 'heuristic', 'strong'];
    const full = t.seats.every((s) => s.occupant !== 'empty');
    const rows = t.seats.map((s) => {
      const label = variant() === 'whist' ? `${WHIST_SEATS[s.seat]} (${s.seat % 2 === 0 ? 'North–South' : 'East–West'})` : `Seat ${s.seat + 1}`;
      let controls = null;
      if (host && s.occupant === 'empty') {
        const choice = S.botChoice[s.seat] || (strategies.includes('heuristic') ? 'heuristic' : strategies[0]);
        const id = `bot-${s.seat}`;
        controls = h('span', { class: 'bot-controls' },
          h('label', { for: id, class: 'sr-only' }, `Computer strength for ${label}`),
          h('select', { id, 'data-focus': `bot-select-${s.seat}`, onchange: (e) => { S.botChoice[s.seat] = e.target.value; } },
            strategies.map((st) => h('option', { value: st, selected: st === choice }, STRATEGY_TEXT[st] || st))),
          h('button', {
            type: 'button', class: 'add-bot', 'data-seat': s.seat, 'data-focus': `add-bot-${s.seat}`,
            onclick: () => send({ type: 'add_bot', seat: s.seat, strategy: S.botChoice[s.seat] || choice }),
          }, 'Add computer player'));
      } else if (host && s.occupant === 'bot') {
        controls = h('button', { type: 'button', class: 'remove-bot', 'data-seat': s.seat, 'data-focus': `remove-bot-${s.seat}`, onclick: () => send({ type: 'remove_bot', seat: s.seat }) }, 'Remove');
      } else if (S.role === 'spectator' && s.occupant === 'empty' && t.status !== 'finished') {
        // Someone watching can still sit down while a seat is free.
        controls = h('button', { type: 'button', class: 'primary', 'data-seat': s.seat, onclick: () => sit(s.seat) }, 'Sit here');
      }
      return h('li', { class: `seat-row occ-${s.occupant}${s.seat === S.seat && S.role === 'player' ? ' me' : ''}` },
        h('span', { class: 'seat-label' }, label),
        h('span', { class: 'seat-who' }, s.seat === S.seat && S.role === 'player' ? `${s.name || 'You'} (you)` : occupantText(s),
          t.host === s.seat ? h('span', { class: 'badge host' }, 'host') : null),
        controls);
    });
    let footer;
    if (host) {
      footer = h('div', { class: 'row start-row' },
        h('button', { type: 'button', class: 'primary big', id: 'start-button', disabled: !full, onclick: () => send({ type: 'start' }) },
          t.status === 'finished' ? 'Play again' : 'Start the match'),
        full ? null : h('span', { class: 'hint' }, 'Fill every seat (invite people or add computer players) to start.'));
    } else {
      footer = h('p', { class: 'hint', role: 'status' }, full ? 'Waiting for the host to start the match.' : 'Waiting for the seats to fill.');
    }
    return h('section', { class: 'panel seats-panel', 'aria-labelledby': 'seats-title' },
      h('h2', { id: 'seats-title' }, 'Seats'),
      h('ul', { class: 'seat-list' }, rows),
      footer,
      S.error ? h('p', { class: 'error', role: 'alert' }, S.error) : null,
      S.role === 'player' ? h('button', { type: 'button', class: 'link', onclick: leave }, 'Leave this table') : null);
  }

  function renderGame() {
    const v = S.view;
    return h('div', { class: 'game' },
      h('div', { class: 'play-area' },
        renderFelt(v),
        S.role === 'player' ? renderHand(v) : h('p', { class: 'hint spectator-note' }, 'You are watching: players’ hands are hidden.')),
      renderScoreSheet(v, 'side'));
  }

  function plate(seat, v) {
    const info = seatInfo(seat);
    const me = seat === S.seat && S.role === 'player';
    const turn = v.to_act.includes(seat) && v.phase !== 'match_over';
    const badges = [];
    if (S.table?.host === seat) badges.push(h('span', { class: 'badge host' }, 'host'));
    if (info?.occupant === 'bot') badges.push(h('span', { class: 'badge bot', title: botStrength(info) }, 'computer'));
    if (info?.bot_playing) badges.push(h('span', { class: 'badge away' }, 'away · computer plays'));
    else if (info && info.occupant === 'human' && !info.connected) badges.push(h('span', { class: 'badge away' }, 'away'));
    if (seat === v.dealer) badges.push(h('span', { class: 'badge dealer', title: 'Dealer' }, 'dealer'));
    if (v.variant === 'whist') {
      const mine = S.role === 'player' && S.seat !== null && seat % 2 === S.seat % 2;
      if (!me) badges.push(h('span', { class: `badge team team-${seat % 2}` }, mine ? 'partner' : 'opponent'));
    }
    const score = [];
    if (v.variant === 'filippa') {
      score.push(h('span', { class: 'stat', title: 'Prize points / penalty points' },
        h('span', { class: 'plus' }, `+${v.totals[seat]}`, h('span', { class: 'sr-only' }, ' prize')), ' / ',
        h('span', { class: 'minus' }, minus(v.negatives[seat]), h('span', { class: 'sr-only' }, ' penalty'))));
    } else {
      score.push(h('span', { class: 'stat' }, `${v.totals[seat]} pts`));
    }
    const passing = v.phase === 'passing' && v.pass;
    return h('div', {
      class: `plate pos-${position(seat)}${turn ? ' turn' : ''}${me ? ' me' : ''}${v.variant === 'whist' ? ` team-${seat % 2}` : ''}`,
      'data-seat': seat,
      role: 'group',
      'aria-label': `${seatName(seat)}${turn ? ', to play' : ''}`,
    },
    h('div', { class: 'plate-name' }, me ? `${info?.name || 'You'} (you)` : seatName(seat)),
    h('div', { class: 'plate-badges' }, badges),
    h('div', { class: 'plate-stats' },
      h('span', { class: 'stat' }, plural(v.hand_sizes[seat], 'card')),
      h('span', { class: 'stat' }, plural(v.tricks_won[seat], 'trick')),
      score),
    passing && !v.pass.waiting.includes(seat) ? h('div', { class: 'plate-note' }, 'passed') : null);
  }

  function turnText(v) {
    if (v.phase === 'match_over') {
      const names = v.winners.map(seatName);
      return `Match over: ${names.join(' and ')} ${names.length === 1 && names[0] !== 'You' ? 'wins' : 'win'}!`;
    }
    if (v.phase === 'passing' && v.pass) {
      const dir = DIRECTION_TEXT[v.pass.direction];
      if (S.role === 'player' && v.legal.type === 'pass') return `Choose ${v.legal.count} cards to pass ${dir}`;
      const waiting = v.pass.waiting.map(seatName);
      return waiting.length ? `Passing ${dir}: waiting for ${waiting.join(', ')}` : `Passing ${dir}…`;
    }
    if (S.role === 'player' && v.legal.type === 'play') return 'Your turn: play a card';
    const next = v.to_act.find((s) => !(S.role === 'player' && s === S.seat));
    if (next !== undefined) return `${seatName(next)}’s turn`;
    if (v.variant === 'hearts' && v.tricks.length === 0 && v.trick.plays.length === 0) {
      return 'Waiting for the two of clubs to lead';
    }
    return 'Waiting…';
  }

  function renderFelt(v) {
    const n = v.players;
    const last = v.tricks[v.tricks.length - 1];
    let shown;
    let caption = '';
    if (S.showLast && last) {
      shown = { plays: completedPlays(last, n), winner: last.winner, done: true };
      caption = `Last trick: ${seatName(last.winner)} took it`;
    } else {
      shown = trickOnTable(v);
      if (shown.done) caption = `${seatName(shown.winner)} took the trick`;
    }
    const trick = h('div', { class: `trick${shown.done ? ' done' : ''}`, role: 'group', 'aria-label': shown.done ? caption : 'Cards on the table' },
      shown.plays.map((p) => h('div', { class: `played pos-${position(p.seat)}${shown.winner === p.seat ? ' winner' : ''}`, 'data-seat': p.seat, 'data-card': p.card },
        staticCard(p.card, `${seatName(p.seat)}: ${cardName(p.card)}`),
        h('span', { class: 'played-by' }, seatName(p.seat)))));
    const you = S.role === 'player' && (v.legal.type !== 'wait');
    return h('section', { class: `felt players-${n}`, 'aria-label': 'The table' },
      Array.from({ length: n }, (_, seat) => plate(seat, v)),
      h('div', { class: 'center' },
        trick,
        h('p', { class: `turn-text${you ? ' you' : ''}`, id: 'turn', role: 'status', 'aria-live': 'polite' }, turnText(v)),
        caption ? h('p', { class: 'trick-caption', id: 'trick-caption' }, caption) : null,
        receivedNote(v),
        S.notice ? h('p', { class: 'notice' }, S.notice) : null));
  }

  function receivedNote(v) {
    const got = v.pass?.received || [];
    if (S.role !== 'player' || !got.length || v.tricks.length > 0 || v.phase !== 'playing') return null;
    const from = (S.seat - stepsOf(v.pass.direction, v.players) + v.players) % v.players;
    return h('p', { class: 'trick-caption', id: 'received' }, `${seatName(from)} passed you `,
      sortHand(got).map((c) => h('strong', { class: `suit-${suitOf(c)} received-card` }, cardShort(c))));
  }

  function stepsOf(direction, n) {
    return direction === 'left' ? 1 : direction === 'right' ? n - 1 : Math.floor(n / 2);
  }

  function renderHand(v) {
    const legal = v.legal;
    const passing = legal.type === 'pass';
    const playable = legal.type === 'play' ? new Set(legal.cards) : null;
    const received = new Set(v.pass?.received || []);
    const cards = sortHand(v.hand);
    const buttons = cards.map((card) => {
      const isLegal = passing || (playable ? playable.has(card) : false);
      const selected = S.selected.has(card);
      const cls = ['card', `suit-${suitOf(card)}`];
      if (playable || passing) cls.push(isLegal ? 'legal' : 'dimmed');
      if (selected) cls.push('selected');
      const fresh = received.has(card) && v.tricks.length === 0;
      if (fresh && v.trick.plays.length === 0) cls.push('received');
      // The same button for the same card across renders: a click is never lost because an
      // event redrew the hand between the press and the release.
      let button = cardButtons.get(card);
      if (!button) {
        button = h('button', {
          type: 'button', 'data-card': card, 'data-focus': `card-${card}`, title: cardName(card),
          onclick: () => clickCard(card),
          onkeydown: (e) => handKeys(e),
        }, cardFace(card));
        cardButtons.set(card, button);
      }
      button.className = cls.join(' ');
      button.setAttribute('aria-label', cardName(card) + (fresh ? ', passed to you' : ''));
      setOrRemove(button, 'aria-pressed', passing ? String(selected) : null);
      setOrRemove(button, 'aria-disabled', playable && !isLegal ? 'true' : null);
      return button;
    });
    for (const card of [...cardButtons.keys()]) if (!v.hand.includes(card)) cardButtons.delete(card);
    const actions = [];
    if (passing) {
      const dir = DIRECTION_TEXT[legal.direction];
      const n = S.selected.size;
      actions.push(h('button', {
        type: 'button', class: 'primary big', id: 'pass-button', disabled: n !== legal.count, 'data-focus': 'pass-button',
        onclick: passSelected,
      }, n === legal.count ? `Pass ${dir}` : `Pass ${dir} (${n} of ${legal.count} chosen)`));
    }
    actions.push(h('button', {
      type: 'button', id: 'last-trick', 'data-focus': 'last-trick', disabled: v.tricks.length === 0, 'aria-pressed': String(S.showLast),
      onclick: () => { S.showLast = !S.showLast; render(); },
    }, S.showLast ? 'Back to this trick' : 'Last trick'));
    actions.push(h('button', { type: 'button', id: 'scores-button', 'data-focus': 'scores-button', onclick: () => openScores(true) }, 'Score sheet'));
    actions.push(h('label', { class: 'check small' },
      h('input', {
        type: 'checkbox', id: 'four-colour', checked: S.fourColour, 'data-focus': 'four-colour',
        onchange: (e) => { S.fourColour = e.target.checked; saveFourColour(S.fourColour); document.body.classList.toggle('four-colour', S.fourColour); },
      }), ' Four-colour deck'));
    return h('section', { class: `hand-area${legal.type !== 'wait' ? ' active' : ''}`, 'aria-label': 'Your hand' },
      h('div', { class: 'hand', role: 'group', 'aria-label': passing ? `Your hand: choose ${legal.count} cards to pass` : 'Your hand' }, buttons),
      S.error ? h('p', { class: 'error', role: 'alert', id: 'play-error' }, S.error) : h('p', { class: 'error empty', role: 'alert', id: 'play-error' }),
      h('div', { class: 'hand-actions' }, actions));
  }

  function setOrRemove(el, name, value) {
    if (value === null) el.removeAttribute(name);
    else el.setAttribute(name, value);
  }

  function handKeys(e) {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const all = [...document.querySelectorAll('.hand .card')];
    const i = all.indexOf(e.target);
    const next = all[i + (e.key === 'ArrowRight' ? 1 : -1)];
    if (next) {
      next.focus();
      e.preventDefault();
    }
  }

  // ---- score sheet -------------------------------------------------------------------------

  function columns(v) {
    if (v.variant === 'whist') {
      const teamName = (t) => {
        const names = [t, t + 2].map(seatName);
        return `${t === 0 ? 'North–South' : 'East–West'} (${names.join(' & ')})`;
      };
      return [{ label: teamName(0), seat: 0 }, { label: teamName(1), seat: 1 }];
    }
    return Array.from({ length: v.players }, (_, seat) => ({ label: seatName(seat), seat }));
  }

  function renderScoreSheet(v, where) {
    const cols = columns(v);
    const filippa = v.variant === 'filippa';
    const rows = v.history.map((r) => h('tr', { class: 'hand-row', 'data-hand': r.hand },
      h('th', { scope: 'row' }, `Hand ${r.hand + 1}`, r.moon !== null && r.moon !== undefined ? h('span', { class: 'moon' }, `${seatName(r.moon)} shot the moon`) : null,
        downloadLink(r, where)),
      cols.map((c) => h('td', { 'data-seat': c.seat, 'data-points': r.points[c.seat], 'data-total': r.totals[c.seat] },
        h('span', { class: 'pts' }, filippa ? `+${r.points[c.seat]}` : signed(r.points[c.seat])),
        filippa ? h('span', { class: 'pen' }, minus(r.penalties[c.seat])) : null,
        h('span', { class: 'tot' }, `total ${filippa ? '+' : ''}${r.totals[c.seat]}`)))));
    const totals = h('tr', { class: 'totals-row' }, h('th', { scope: 'row' }, 'Totals'),
      cols.map((c) => h('td', { 'data-seat': c.seat },
        filippa ? [h('span', { class: 'pts' }, `+${v.totals[c.seat]}`), h('span', { class: 'pen' }, minus(v.negatives[c.seat]))]
          : String(v.totals[c.seat]))));
    const rule = {
      hearts: `Lowest score wins; the match ends at ${v.options.target} points.`,
      hearts5: `Lowest score wins after ${v.options.hands} hands.`,
      filippa: `Prize points above, penalty points below. The highest prize total wins once someone reaches ${v.options.target}.`,
      tricks: `A point per trick; first to ${v.options.target} wins.`,
      whist: `A point per trick over six; first partnership to ${v.options.target} wins.`,
    }[v.variant];
    return h('section', { class: `score-sheet ${where}`, 'aria-label': 'Score sheet' },
      h('h2', {}, 'Score sheet'),
      h('div', { class: 'sheet-scroll' },
        h('table', {},
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), cols.map((c) => h('th', { scope: 'col' }, c.label)))),
          h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', { colspan: cols.length + 1, class: 'hint' }, 'No hand finished yet.')), totals))),
      rule ? h('p', { class: 'hint' }, rule) : null);
  }

  function plural(n, word) {
    return `${n} ${word}${n === 1 ? '' : 's'}`;
  }

  function minus(x) {
    return x < 0 ? `−${-x}` : String(x);
  }

  function signed(x) {
    return x > 0 ? `+${x}` : String(x);
  }

  function openScores(manual) {
    S.dialogOpenFor = manual ? 'manual' : 'auto';
    renderDialog();
  }

  function renderDialog() {
    const v = S.view;
    if (!v || !dialog) return;
    const lastHand = v.history[v.history.length - 1];
    // Open by itself once per finished hand (and at the end of the match).
    if (lastHand && lastHand.hand > S.dialogHand && S.dialogOpenFor === null && S.role !== 'none') {
      S.dialogOpenFor = 'auto';
    }
    if (S.dialogOpenFor === null) {
      if (dialog.open) dialog.close();
      return;
    }
    const over = v.phase === 'match_over';
    const title = over ? 'The match is over' : lastHand ? `Hand ${lastHand.hand + 1} is over` : 'Score sheet';
    const winners = over ? v.winners.map(seatName) : [];
    const host = isHost();
    const moon = lastHand && lastHand.moon !== null && lastHand.moon !== undefined ? `${seatName(lastHand.moon)} shot the moon!` : '';
    const buttons = [];
    if (over && host) buttons.push(h('button', { type: 'button', class: 'primary big', id: 'play-again', 'data-focus': 'play-again', onclick: () => { send({ type: 'start' }); closeDialog(); } }, 'Play again'));
    buttons.push(h('button', { type: 'button', class: over && host ? '' : 'primary big', id: 'dialog-close', 'data-focus': 'dialog-close', onclick: closeDialog }, over ? 'Close' : 'Continue'));
    replaceChildren(dialog,
      h('div', { class: 'dialog-body' },
        h('h2', { id: 'dialog-title' }, title),
        over ? h('p', { class: 'winners', id: 'winners' }, `★ ${winners.join(' and ')} ${winners.length === 1 && winners[0] !== 'You' ? 'wins' : 'win'}!`) : null,
        moon ? h('p', { class: 'moon-note' }, moon) : null,
        renderScoreSheet(v, 'in-dialog'),
        over && !host ? h('p', { class: 'hint' }, 'The host can start another match.') : null,
        h('div', { class: 'row dialog-buttons' }, buttons)));
    dialog.setAttribute('aria-labelledby', 'dialog-title');
    if (!dialog.open) {
      dialog.showModal();
      dialog.querySelector('#dialog-close')?.focus();
    }
  }

  function closeDialog() {
    const v = S.view;
    const lastHand = v?.history[v.history.length - 1];
    if (lastHand) S.dialogHand = lastHand.hand;
    S.dialogOpenFor = null;
    if (dialog.open) dialog.close();
    render();
  }

  if (dialog && !dialog.dataset.wired) {
    dialog.dataset.wired = '1';
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      closeDialog();
    });
  }

  // Exposed for debugging in the console and for tests that want to look at the model.
  window.__parlor = S;
}
