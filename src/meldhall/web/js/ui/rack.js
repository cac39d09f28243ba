// The player's own rack (istaka): rows of slots where tiles sit, with gaps the player leaves
// on purpose. Drag and drop with pointer events (mouse, touch, pen), click to select,
// double-click to turn a joker face down, arrow keys and Enter, sort buttons. The arrangement
// is the player's own and is kept in the browser between turns and reloads.
import { pieceEl } from './tiles.js';
import { sortKey } from './faces.js';
import { t } from '../i18n.js';

const DRAG_START = 6; // pixels before a press becomes a drag

export class Rack {
  constructor({ family, rows = 2, cols = 15, storeKey, isJoker = () => false, onDrop, onSelect, onKey, defaultSort = 'runs' }) {
    Object.assign(this, { family, rows, cols, storeKey, isJoker, onDrop, onSelect, onKey, defaultSort });
    this.slots = new Array(rows * cols).fill(null);
    this.down = new Set();
    this.selection = new Set();
    this.focus = 0;
    this.el = document.createElement('div');
    this.el.className = `rack rows-${rows}`;
    this.el.setAttribute('role', 'listbox');
    this.el.setAttribute('aria-multiselectable', 'true');
    this.el.setAttribute('aria-orientation', 'horizontal');
    this.el.setAttribute('aria-label', t(family === 'mahjong' || family === 'card' ? 'a11y.hand' : 'a11y.rack'));
    this.el.style.setProperty('--cols', cols);
    this.el.dataset.drop = 'rack';
    for (let i = 0; i < rows * cols; i++) {
      const slot = document.createElement('div');
      slot.className = 'slot';
      slot.setAttribute('role', 'none');
      slot.dataset.index = i;
      this.el.append(slot);
    }
    this.el.addEventListener('keydown', (e) => this.key(e));
    this.load();
  }

  // ---------------------------------------------------------------- arrangement

  load() {
    try {
      const saved = JSON.parse(localStorage.getItem(this.storeKey) || 'null');
      if (saved && saved.slots.length === this.slots.length) {
        this.slots = saved.slots;
        this.down = new Set(saved.down || []);
      }
    } catch {
      /* a broken saved arrangement is forgotten */
    }
  }

  /** Keep the arrangement for a reload (written only when it changed). */
  save() {
    if (!this.storeKey) return;
    const text = JSON.stringify({ slots: this.slots, down: [...this.down] });
    if (text === this.savedText) return;
    this.savedText = text;
    localStorage.setItem(this.storeKey, text);
  }

  /** Return the tokens on the rack in slot order. */
  tokens() {
    return this.slots.filter(Boolean);
  }

  /** Make the rack hold exactly these tiles, keeping the player's arrangement. */
  update(tokens, fresh = []) {
    const want = new Set(tokens);
    this.slots = this.slots.map((t) => (t && want.has(t) ? t : null));
    for (const t of [...this.down]) if (!want.has(t)) this.down.delete(t);
    for (const t of [...this.selection]) if (!want.has(t)) this.selection.delete(t);
    const missing = tokens.filter((t) => !this.slots.includes(t));
    if (missing.length > tokens.length / 2) {
      this.sort(this.defaultSort, tokens);
    } else {
      for (const t of missing) this.slots[this.freeSlot()] = t;
    }
    this.fresh = new Set(fresh);
    this.save();
    this.draw();
  }

  freeSlot() {
    const last = this.slots.reduce((acc, t, i) => (t ? i : acc), -1);
    for (let i = last + 1; i < this.slots.length; i++) if (!this.slots[i]) return i;
    const any = this.slots.indexOf(null);
    if (any >= 0) return any;
    this.slots.push(null);
    return this.slots.length - 1;
  }

  /** Lay the tiles out by runs, groups or pairs, each combination followed by a gap. */
  sort(mode, tokens = this.tokens()) {
    const items = tokens.map((t) => ({ t, ...sortKey(this.family, t), joker: this.isJoker(t) }));
    const jokers = items.filter((x) => x.joker || x.blank);
    const rest = items.filter((x) => !(x.joker || x.blank));
    const blocks = [];
    if (mode === 'suits') {
      rest.sort((a, b) => a.c.localeCompare(b.c) || a.n - b.n || a.t.localeCompare(b.t));
      split(rest, (a, b) => a.c === b.c, blocks);
    } else if (mode === 'groups') {
      rest.sort((a, b) => a.n - b.n || a.c.localeCompare(b.c) || a.t.localeCompare(b.t));
      split(rest, (a, b) => a.n === b.n, blocks);
    } else if (mode === 'pairs') {
      rest.sort((a, b) => a.c.localeCompare(b.c) || a.n - b.n || a.t.localeCompare(b.t));
      const byFace = new Map();
      for (const x of rest) byFace.set(x.c + x.n, [...(byFace.get(x.c + x.n) || []), x]);
      const pairs = [...byFace.values()].filter((g) => g.length > 1);
      const singles = [...byFace.values()].filter((g) => g.length === 1).flat();
      blocks.push(...pairs, singles);
    } else {
      rest.sort((a, b) => a.c.localeCompare(b.c) || a.n - b.n || a.t.localeCompare(b.t));
      split(rest, (a, b) => a.c === b.c && (b.n === a.n + 1 || b.n === a.n), blocks);
    }
    if (jokers.length) blocks.push(jokers);
    const order = [];
    for (const block of blocks.filter((b) => b.length)) {
      order.push(...block.map((x) => x.t), null);
    }
    this.slots = packRows(order, this.rows, this.cols);
    this.save();
    this.draw();
  }

  /** Return the runs of adjacent tiles between gaps, row by row (seed 004's rack reading). */
  groups() {
    const out = [];
    for (let r = 0; r < this.rows; r++) {
      let cur = [];
      for (let c = 0; c < this.cols; c++) {
        const t = this.slots[r * this.cols + c];
        if (t) cur.push(t);
        else if (cur.length) {
          out.push(cur);
          cur = [];
        }
      }
      if (cur.length) out.push(cur);
    }
    return out;
  }

  // ---------------------------------------------------------------- selection

  selected() {
    return this.tokens().filter((t) => this.selection.has(t));
  }

  clearSelection() {
    this.selection.clear();
    this.draw();
    this.onSelect?.(this.selected());
  }

  toggle(token) {
    if (this.selection.has(token)) this.selection.delete(token);
    else this.selection.add(token);
    this.draw();
    this.onSelect?.(this.selected());
  }

  flip(token) {
    if (!this.isJoker(token)) return;
    if (this.down.has(token)) this.down.delete(token);
    else {
      this.down.add(token);
      this.selection.delete(token);
    }
    this.save();
    this.draw();
    this.onSelect?.(this.selected());
  }

  // ---------------------------------------------------------------- drawing

  draw() {
    const slots = this.el.children;
    const hadFocus = this.el.contains(document.activeElement);
    if (!this.slots[this.focus]) this.focus = Math.max(0, this.slots.findIndex(Boolean));
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      const t = this.slots[i];
      const current = slot.firstChild;
      if (!t) {
        if (current) current.remove();
        continue;
      }
      const faceDown = this.down.has(t);
      if (!current || current.dataset.token !== t || current.classList.contains('down') !== faceDown) {
        const piece = pieceEl(this.family, t, { joker: this.isJoker(t), faceDown, cls: faceDown ? 'down' : '' });
        piece.dataset.token = t;
        piece.setAttribute('role', 'option');
        this.wire(piece);
        slot.replaceChildren(piece);
      }
      const piece = slot.firstChild;
      piece.classList.toggle('selected', this.selection.has(t));
      piece.classList.toggle('fresh', Boolean(this.fresh?.has(t)));
      piece.setAttribute('aria-selected', String(this.selection.has(t)));
      piece.tabIndex = i === this.focus ? 0 : -1;
    }
    if (hadFocus && !this.el.contains(document.activeElement)) this.focusPiece();
  }

  /** Move the keyboard focus to the tile at the roving position. */
  focusPiece() {
    this.el.children[this.focus]?.firstChild?.focus({ preventScroll: true });
  }

  /** Play the one selected tile on a zone (the discard spot, the finish zone) as a drop
   * would; return whether a tile was played. */
  async dropSelected(zone) {
    const sel = this.selected();
    if (sel.length !== 1 || !this.onDrop) return false;
    await this.drop(sel[0], zone);
    return true;
  }

  // ---------------------------------------------------------------- pointer

  wire(piece) {
    piece.addEventListener('pointerdown', (e) => this.press(e, piece));
    piece.addEventListener('dblclick', () => this.flip(piece.dataset.token));
  }

  press(e, piece) {
    if (e.button !== 0) return;
    e.preventDefault();
    piece.setPointerCapture(e.pointerId);
    const start = { x: e.clientX, y: e.clientY };
    const token = piece.dataset.token;
    let ghost = null;
    const move = (ev) => {
      if (!ghost && Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < DRAG_START) return;
      if (!ghost) {
        const box = piece.getBoundingClientRect();
        ghost = piece.cloneNode(true);
        ghost.classList.add('ghost');
        ghost.style.width = `${box.width}px`;
        ghost.style.height = `${box.height}px`;
        ghost.dx = start.x - box.left;
        ghost.dy = start.y - box.top;
        document.body.append(ghost);
        piece.classList.add('dragging');
      }
      ghost.style.transform = `translate(${ev.clientX - ghost.dx}px, ${ev.clientY - ghost.dy}px)`;
      highlight(ev.clientX, ev.clientY, ghost);
    };
    const up = async (ev) => {
      piece.removeEventListener('pointermove', move);
      piece.removeEventListener('pointerup', up);
      piece.removeEventListener('pointercancel', up);
      if (!ghost) {
        if (ev.type === 'pointerup') this.toggle(token);
        return;
      }
      ghost.style.visibility = 'hidden';
      const target = document.elementFromPoint(ev.clientX, ev.clientY);
      highlight(-1, -1, null);
      ghost.remove();
      piece.classList.remove('dragging');
      await this.drop(token, target, ev);
    };
    piece.addEventListener('pointermove', move);
    piece.addEventListener('pointerup', up);
    piece.addEventListener('pointercancel', up);
  }

  async drop(token, target, ev) {
    const slot = target?.closest?.('.slot');
    if (slot && this.el.contains(slot)) {
      this.moveTo(token, Number(slot.dataset.index));
      return;
    }
    const zone = target?.closest?.('[data-drop]');
    if (!zone || zone === this.el || !this.onDrop) return;
    if (this.down.has(token)) {
      this.onKey?.('face-down', token);
      return;
    }
    await this.onDrop(token, zone, ev);
  }

  /** Move a tile to a slot; tiles in the way shift towards the nearest gap of that row. */
  moveTo(token, index) {
    const from = this.slots.indexOf(token);
    if (from < 0 || from === index) return;
    this.slots[from] = null;
    if (this.slots[index]) {
      const row = Math.floor(index / this.cols);
      const lo = row * this.cols;
      const hi = lo + this.cols - 1;
      let gap = -1;
      for (let i = index; i <= hi; i++) if (!this.slots[i]) { gap = i; break; }
      if (gap >= 0) {
        for (let i = gap; i > index; i--) this.slots[i] = this.slots[i - 1];
      } else {
        for (let i = index; i >= lo; i--) if (!this.slots[i]) { gap = i; break; }
        if (gap < 0) {
          this.slots[from] = token;
          return;
        }
        for (let i = gap; i < index; i++) this.slots[i] = this.slots[i + 1];
      }
    }
    this.slots[index] = token;
    this.save();
    this.draw();
  }

  // ---------------------------------------------------------------- keyboard

  key(e) {
    const filled = this.slots.map((t, i) => (t ? i : -1)).filter((i) => i >= 0);
    if (!filled.length) return;
    let pos = filled.indexOf(this.focus);
    if (pos < 0) pos = 0;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') pos = Math.min(filled.length - 1, pos + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') pos = Math.max(0, pos - 1);
    else if (e.key === 'Enter' || e.key === ' ') this.toggle(this.slots[filled[pos]]);
    else if (e.key === 'd' || e.key === 'D') this.onKey?.('discard', this.slots[filled[pos]]);
    else return;
    e.preventDefault();
    this.focus = filled[pos];
    this.draw();
    this.focusPiece();
  }
}

function split(items, together, blocks) {
  let cur = [];
  for (const x of items) {
    if (cur.length && !together(cur[cur.length - 1], x)) {
      blocks.push(cur);
      cur = [];
    }
    cur.push(x);
  }
  if (cur.length) blocks.push(cur);
}

/** Return slots filled row by row with an order of tokens and gaps (null), never splitting
 * a block across rows when it fits on the next row. */
function packRows(order, rows, cols) {
  const slots = new Array(rows * cols).fill(null);
  const blocks = [];
  let cur = [];
  for (const t of order) {
    if (t === null) {
      if (cur.length) blocks.push(cur);
      cur = [];
    } else cur.push(t);
  }
  if (cur.length) blocks.push(cur);
  let r = 0;
  let c = 0;
  const overflow = [];
  for (const block of blocks) {
    if (c + block.length > cols && c > 0 && r < rows - 1) {
      r += 1;
      c = 0;
    }
    for (const t of block) {
      if (c >= cols) {
        if (r < rows - 1) {
          r += 1;
          c = 0;
        } else {
          overflow.push(t);
          continue;
        }
      }
      slots[r * cols + c] = t;
      c += 1;
    }
    c += 1;
  }
  for (const t of overflow) slots[slots.indexOf(null)] = t;
  return slots;
}

let lit = null;
function highlight(x, y, ghost) {
  let zone = null;
  if (ghost) {
    ghost.style.visibility = 'hidden';
    zone = document.elementFromPoint(x, y)?.closest?.('[data-drop], .slot');
    ghost.style.visibility = '';
  }
  if (lit && lit !== zone) lit.classList.remove('drop-over');
  if (zone) zone.classList.add('drop-over');
  lit = zone;
}
