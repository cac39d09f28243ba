// The move history of the hand: every move of every seat (the computers' too) in words, with
// the pieces it names, newest at the bottom of a scrollable panel that a toolbar button opens;
// the toolbar shows only the latest line, so the status line keeps its room. Refusals and
// returns are written here too, with the engine's numbers.
import { t, el } from './i18n.js';
import { button } from './ui/parts.js';
import { pieceEl } from './ui/tiles.js';
import { reasonOf } from './ui/okeyparts.js';

const HAND_STARTS = new Set(['deal', 'hand_start']);
const MAX_LINES = 400;

/** Return the translation key of an event's line: the person's own words where the event
 * speaks to them, the numbered variants where the event carries numbers. */
function keyOf(e, mine) {
  if (e.kind === 'opening_returned' && mine) return 'ev.opening_returned_mine';
  if (e.kind === 'take_discard' && Array.isArray(e.tiles) && e.tiles.length > 1) return 'ev.take_many';
  if (e.kind === 'meld' && valueOf(e) !== null) return 'ev.meld_value';
  return `ev.${e.kind}`;
}

/** Return the value the engine gave a laid meld or combination, or null. */
function valueOf(e) {
  const v = e.meld?.value ?? e.combo?.value;
  return typeof v === 'number' ? v : null;
}

/** Return the words of an event as {key, vars}, or null when the event is not a move a
 * person follows (the key has no translation). */
export function eventWords(e, nameOf, mySeat) {
  const seat = e.seat ?? null;
  const key = keyOf(e, seat !== null && seat === mySeat);
  if (t(key) === key || seat === null) return null;
  const n = nameOf(seat);
  const vars = {
    name: t(n.key, n.vars), amount: e.amount ?? '', reason: reasonOf(e.reason ?? ''),
    value: e.value ?? valueOf(e) ?? '', need: e.need ?? '', n: Array.isArray(e.tiles) ? e.tiles.length : '',
  };
  return { key, vars };
}

/** Return the pieces an event names (a tile, a card, the tiles taken or laid), as tokens. */
export function eventPieces(e) {
  if (typeof e.tile === 'string') return [e.tile];
  if (typeof e.card === 'string') return [e.card];
  const laid = e.kind === 'take_discard' ? e.tiles : (e.meld ?? e.combo)?.tiles ?? (e.meld ?? e.combo)?.cards;
  return Array.isArray(laid) ? laid.filter((x) => typeof x === 'string') : [];
}

/** The history panel and its toolbar button; `family` names the pieces' drawing. The lines
 * are kept as data and drawn at most once a frame (the latest in the toolbar, the list only
 * while the panel is open), so that a backlog of states costs little. */
export class History {
  constructor({ nameOf, family }) {
    this.nameOf = nameOf;
    this.family = family;
    this.items = [];
    this.drawn = 0;
    this.frame = false;
    this.list = el('ol', { cls: 'history-list', attrs: { id: 'history-list' } });
    this.panel = el('aside', { cls: 'history', attrs: { id: 'history', 'aria-label': t('history.title'), hidden: '' } },
      el('div', { cls: 'history-head' }, el('h2', { key: 'history.title' }), button('ui.close', () => this.toggle(false), { cls: 'ghost', attrs: { id: 'history-close' } })),
      this.list);
    this.latest = el('span', { cls: 'latest', attrs: { id: 'move-log', 'aria-live': 'polite' } });
    this.button = button('history.open', () => this.toggle(), { cls: 'history-button', attrs: { id: 'history-button', 'aria-expanded': 'false', 'aria-controls': 'history' } });
    this.strip = el('div', { cls: 'move-log' }, this.button, this.latest);
  }

  /** Show or hide the panel (toggle without an argument). */
  toggle(open = this.panel.hidden) {
    this.panel.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) this.draw();
  }

  /** Forget the moves (a new match). */
  clear() {
    this.items = [];
    this.drawn = 0;
    this.list.replaceChildren();
    this.latest.replaceChildren();
  }

  /** Add the moves of a state's events; a new hand starts with a heading. */
  add(events, mySeat) {
    for (const e of events) {
      if (HAND_STARTS.has(e.kind) && this.items.length) this.items.push({ heading: true });
      const words = eventWords(e, this.nameOf, mySeat);
      if (words) this.line(words, eventPieces(e), e.seat === mySeat ? 'mine' : '');
    }
  }

  /** Add one line of words (with pieces); it is drawn at the next frame. */
  line({ key, vars }, pieces = [], cls = '') {
    this.items.push({ key, vars, pieces, cls });
    if (this.items.length > MAX_LINES) {
      this.items.splice(0, this.items.length - MAX_LINES);
      this.drawn = 0;
      this.list.replaceChildren();
    }
    if (!this.frame) {
      this.frame = true;
      requestAnimationFrame(() => this.draw());
    }
  }

  /** Draw the latest line in the toolbar and, while the panel is open, the lines not drawn yet. */
  draw() {
    this.frame = false;
    const last = [...this.items].reverse().find((x) => !x.heading);
    this.latest.replaceChildren(...(last ? [this.itemEl(last, 'span')] : []));
    if (this.panel.hidden) return;
    this.list.append(...this.items.slice(this.drawn).map((x) => this.itemEl(x)));
    this.drawn = this.items.length;
    this.list.lastElementChild?.scrollIntoView({ block: 'end' });
  }

  /** Return the element of one line: a list item of the panel, or (`tag`) the toolbar's. */
  itemEl(x, tag = 'li') {
    if (x.heading) return el(tag, { cls: 'new-hand', key: 'history.new_hand' });
    const item = el(tag, { cls: `move ${x.cls}`.trim() }, el('span', { key: x.key, vars: x.vars }));
    if (x.pieces.length && this.family) item.append(...x.pieces.map((tok) => pieceEl(this.family, tok, { small: true })));
    return item;
  }
}
