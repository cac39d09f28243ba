// The table chat (docs/protocol.md, "Chat"): the room's messages, a text box, the quick
// phrases (shown in each reader's language), mute and report buttons. Names and texts are
// only ever set as text (textContent), never as HTML.
import { t, el } from './i18n.js';

export const QUICK = ['good_luck', 'well_played', 'thanks'];
const TEXT_MAX = 200;
/** The rejection codes that answer a chat message (docs/protocol.md). */
const CODES = new Set(['rate_limited', 'too_long', 'empty', 'chat_off', 'banned', 'no_message', 'spectator', 'no_room', 'bad_message']);

export class ChatPanel {
  /** Build the panel; `send` sends a protocol message. */
  constructor(send) {
    this.send = send;
    this.room = null;
    this.pending = 0; // chat messages sent and not answered yet
    this.onUnread = () => {};
    this.log = el('ol', { cls: 'chat-log', attrs: { id: 'chat-log', 'aria-live': 'polite' } });
    this.status = el('p', { cls: 'chat-status hint', attrs: { id: 'chat-status', role: 'status' } });
    this.input = el('input', { attrs: { type: 'text', id: 'chat-text', maxlength: String(TEXT_MAX), autocomplete: 'off', 'data-i18n-placeholder': 'chat.placeholder', 'aria-label': t('chat.placeholder') } });
    this.input.placeholder = t('chat.placeholder');
    const form = el('form', { cls: 'chat-form row-form', attrs: { id: 'chat-form' } }, this.input,
      el('button', { key: 'chat.send', attrs: { type: 'submit', id: 'chat-send' } }));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      this.say({ type: 'chat', text });
      this.input.value = '';
    });
    const quick = el('div', { cls: 'chat-quick' }, ...QUICK.map((q) => el('button', {
      key: `chat.quick.${q}`, attrs: { type: 'button', 'data-quick': q }, on: { click: () => this.say({ type: 'chat', quick: q }) },
    })));
    this.element = el('details', { cls: 'chat-box', attrs: { id: 'chat', open: '' } },
      el('summary', { key: 'chat.title' }), this.log, quick, form, this.status);
  }

  say(message) {
    this.pending += 1;
    this.status.replaceChildren();
    this.send(message);
  }

  /** Enter a room (a lobby table's id): ask for its latest messages once. */
  enter(room) {
    if (!room || room === this.room) return;
    this.room = room;
    this.log.replaceChildren();
    this.send({ type: 'chat_open' });
  }

  /** Take a chat message from the server: chat, chat_history, muted or reported. */
  onMessage(m) {
    if (m.type === 'chat_history') {
      if (m.room !== this.room) return;
      this.log.replaceChildren(...m.messages.map((x) => this.line(x)));
    } else if (m.type === 'chat') {
      if (m.you) this.answered();
      if (m.room !== this.room) return;
      this.log.append(this.line(m));
      if (!m.you) this.onUnread();
    } else if (m.type === 'muted') {
      this.answered();
      if (m.on) for (const li of this.log.querySelectorAll(`li[data-author="${CSS.escape(m.author)}"]`)) li.remove();
      this.note(m.on ? 'chat.muted' : 'chat.unmuted');
    } else if (m.type === 'reported') {
      this.answered();
      this.log.querySelector(`li[data-id="${m.message}"]`)?.classList.add('reported');
      this.note('chat.reported');
    }
    this.log.scrollTop = this.log.scrollHeight;
  }

  answered() {
    this.pending = Math.max(0, this.pending - 1);
  }

  /** Take a rejection if it answers one of this panel's messages; return whether it did. */
  rejected(m) {
    if (!this.pending || !CODES.has(m.code)) return false;
    this.answered();
    this.note(`chat.error.${m.code}`, m.reason);
    return true;
  }

  note(key, fallback = '') {
    const text = t(key);
    this.status.replaceChildren(el('span', text === key ? { raw: fallback } : { key }));
  }

  /** Return the list item of one message: its author's name, its text (or its quick phrase
   * in the reader's language), and for others' messages the mute and report buttons. */
  line(m) {
    const li = el('li', { cls: m.you ? 'mine' : '', attrs: { 'data-id': String(m.id), 'data-author': m.author } },
      el('strong', { cls: 'chat-name', raw: m.name || t('chat.nameless') }),
      el('span', m.quick ? { cls: 'chat-text quick', key: `chat.quick.${m.quick}` } : { cls: 'chat-text', raw: m.text }));
    if (!m.you) {
      li.append(
        el('button', { cls: 'ghost chat-mute', key: 'chat.mute', attrs: { type: 'button' }, on: { click: () => this.say({ type: 'mute', author: m.author, on: true }) } }),
        el('button', { cls: 'ghost chat-report', key: 'chat.report', attrs: { type: 'button' }, on: { click: () => this.say({ type: 'report', message: m.id }) } }));
    }
    return li;
  }
}
