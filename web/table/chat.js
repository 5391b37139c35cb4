// @ts-check
// Table talk: a small "Chat" button docked in the table's head, opening a panel over the page
// with the table's recent lines, quick reactions and a box to write in. Seated players write;
// spectators read (and write when the table allows it).
//
// Owns: the chat button and panel (fixed over the page, so the one-screen layout never grows)
// and the lines heard. Every line is put on the page with `textContent`, never as HTML. May not
// touch: the state (it reads the role and the table) nor the other parts.

import { t } from '../i18n/index.js';
import { h } from '../dom.js';

/** @typedef {import('./state.js').TableState} TableState */
/** @typedef {{ type: 'chat', seat: number | null, name: string, text: string, at: number }} ChatLine */

/** The quick reactions offered beside the box. */
export const REACTIONS = ['👍', '😂', '😮', 'chat.nice_trick', 'chat.oops'];

/** A reaction as sent: an emoji as it is, a word in the language. @param {string} key */
function reactionText(key) {
  return key.startsWith('chat.') ? t(key) : key;
}
/** The longest line the server takes, in characters. */
export const MAX_CHARS = 200;
/** Lines kept on the page. */
const KEPT = 100;

/** The codes of refused lines the catalogue words (`chat.<code>`). */
const REFUSALS = ['chat_too_long', 'chat_too_fast', 'not_seated'];

/** A refused line's words. @param {string} code */
function refusal(code) {
  return t(`chat.${code}`, { max: MAX_CHARS });
}

/**
 * The chat of one table page. `send` sends a client message and says whether it went out.
 * @param {(msg: any) => boolean} send
 */
export function chatPanel(send) {
  const count = h('span', { class: 'chat-unread', hidden: true });
  const toggle = /** @type {HTMLButtonElement} */ (h('button', {
    type: 'button', class: 'chat-toggle', id: 'chat-toggle', 'aria-expanded': 'false', 'aria-controls': 'chat-panel',
  }, t('chat.button'), count));
  const log = h('div', { class: 'chat-log', id: 'chat-log', role: 'log', 'aria-live': 'polite', 'aria-label': t('chat.title') });
  const input = /** @type {HTMLInputElement} */ (h('input', {
    type: 'text', id: 'chat-input', maxlength: String(MAX_CHARS), autocomplete: 'off', placeholder: t('chat.placeholder'), 'aria-label': t('chat.message'),
  }));
  const sendButton = h('button', { type: 'submit', class: 'primary', id: 'chat-send' }, t('chat.send'));
  const form = /** @type {HTMLFormElement} */ (h('form', { class: 'chat-form' }, input, sendButton));
  const reactions = h('div', { class: 'chat-reactions', role: 'group', 'aria-label': t('chat.reactions') },
    REACTIONS.map((key) => h('button', { type: 'button', class: 'chat-reaction', 'data-reaction': reactionText(key) }, reactionText(key))));
  const note = h('p', { class: 'error chat-error', id: 'chat-error', 'aria-live': 'polite' });
  const close = h('button', { type: 'button', class: 'link chat-close', 'aria-label': t('chat.close') }, '×');
  const panel = h('section', { class: 'panel chat-panel', id: 'chat-panel', hidden: true, 'aria-label': t('chat.title') },
    h('div', { class: 'chat-title' }, h('strong', {}, t('chat.title')), close), log, reactions, form, note);
  const root = h('div', { class: 'chat' }, panel);
  let unread = 0;
  /** Lines already shown, so the recent lines sent again after a reconnect are not doubled. */
  const seen = new Set();

  const setOpen = (/** @type {boolean} */ open) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) {
      unread = 0;
      count.hidden = true;
      log.scrollTop = log.scrollHeight;
      if (!input.disabled) input.focus();
    }
  };
  const say = (/** @type {string} */ text) => {
    const line = text.trim();
    if (!line) return false;
    if ([...line].length > MAX_CHARS) {
      note.textContent = refusal('chat_too_long');
      return false;
    }
    note.textContent = '';
    return send({ type: 'chat', text: line });
  };
  toggle.addEventListener('click', () => setOpen(panel.hidden));
  close.addEventListener('click', () => { setOpen(false); toggle.focus(); });
  reactions.addEventListener('click', (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest('[data-reaction]');
    if (button) say(/** @type {string} */ (button.getAttribute('data-reaction')));
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (say(input.value)) input.value = '';
  });

  return {
    /** A line heard: added to the log as text. @param {ChatLine} msg */
    hear(msg) {
      const key = `${msg.at}|${msg.seat}|${msg.name}|${msg.text}`;
      if (seen.has(key)) return;
      seen.add(key);
      const who = h('strong', { class: 'chat-who' });
      who.textContent = `${msg.name}:`;
      const text = h('span', { class: 'chat-text' });
      text.textContent = msg.text;
      const time = new Date(msg.at);
      const line = h('p', { class: 'chat-line', title: time.toLocaleTimeString() }, who, ' ', text);
      log.appendChild(line);
      while (log.childElementCount > KEPT) log.firstElementChild?.remove();
      log.scrollTop = log.scrollHeight;
      if (panel.hidden) {
        unread += 1;
        count.textContent = String(unread);
        count.hidden = false;
      }
    },
    /** A chat line the server refused: said in the panel. @param {{ code: string, message: string }} msg */
    refused(msg) {
      note.textContent = REFUSALS.includes(msg.code) ? refusal(msg.code) : msg.message;
    },
    /**
     * Shows the button in the top bar (beside "How to play", so the game keeps its height on a
     * phone) when at a table, and who may write. @param {TableState} s
     */
    update(s) {
      const at = s.role === 'player' || s.role === 'spectator';
      const bar = document.querySelector('.topbar');
      if (at && bar) {
        if (toggle.parentElement !== bar) bar.insertBefore(toggle, bar.querySelector('#howto-button'));
        if (!root.isConnected) document.body.appendChild(root);
      } else {
        toggle.remove();
        root.remove();
      }
      const writes = s.role === 'player' || Boolean(s.table?.table_options?.spectator_chat);
      input.disabled = !writes;
      sendButton.toggleAttribute('disabled', !writes);
      for (const b of reactions.querySelectorAll('button')) b.toggleAttribute('disabled', !writes);
      input.placeholder = writes ? t('chat.placeholder') : t('chat.players_only');
    },
  };
}
