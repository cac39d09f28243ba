// Small shared parts of every table: seat panels, buttons, dialogs, toasts, countdowns,
// score tables and the end-of-hand screen frame.
import { el, t, fmt } from '../i18n.js';
import { pieceEl } from './tiles.js';

/** Return a button with a translated label. */
export function button(key, onClick, opts = {}) {
  const b = el('button', { key, vars: opts.vars, cls: opts.cls || '', attrs: { type: 'button', ...(opts.attrs || {}) } });
  b.addEventListener('click', onClick);
  return b;
}

/** Make an element a keyboard control named `label`: role button, in the tab order, Enter and
 * Space click it (its click handler does the action); return the element. */
export function control(node, label) {
  node.setAttribute('role', 'button');
  node.setAttribute('aria-label', label);
  node.tabIndex = 0;
  node.addEventListener('keydown', (e) => {
    if (e.target !== node || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    node.click();
  });
  return node;
}

/** Return a seat panel: name, computer badge and level, connection dot, hidden count, score,
 * turn. */
export function seatPanel(info) {
  const panel = el('div', { cls: `seat-panel${info.turn ? ' turn' : ''}`, attrs: { 'data-seat': info.seat } });
  const name = el('div', { cls: 'name' }, el('span', { cls: 'dot on', attrs: { 'aria-hidden': 'true' } }), el('span', { key: info.nameKey, vars: info.nameVars }));
  if (info.bot) name.append(el('span', { cls: 'badge', key: 'seat.computer' }));
  if (info.bot && info.level) name.append(el('span', { cls: `badge level level-${info.level}`, key: `level.${info.level}` }));
  panel.append(name);
  const facts = el('div', { cls: 'facts' });
  if (info.count !== undefined && info.count !== null) facts.append(el('span', { cls: 'count', key: info.countKey || 'seat.tiles', vars: { n: info.count } }));
  if (info.score !== undefined && info.score !== null) facts.append(el('span', { cls: 'score', key: 'seat.score', vars: { n: info.score } }));
  for (const extra of info.extra || []) facts.append(extra);
  panel.append(facts);
  return panel;
}

/** Return a row of face-down pieces (an opponent's hidden hand), at most `max` drawn. */
export function hiddenRow(family, count, max = 15) {
  const row = el('div', { cls: 'hidden-row', attrs: { 'aria-hidden': 'true' } });
  for (let i = 0; i < Math.min(count, max); i++) row.append(pieceEl(family, null, { small: true }));
  return row;
}

/** Return a row of face-up pieces. */
export function pieceRow(family, tokens, opts = {}) {
  const row = el('div', { cls: `piece-row ${opts.cls || ''}` });
  tokens.forEach((tok, i) => {
    if (!tok) return;
    const p = pieceEl(family, tok, { small: opts.small !== false, joker: opts.isJoker?.(tok, i) });
    if (opts.fresh && opts.fresh === tok) p.classList.add('fresh');
    row.append(p);
  });
  return row;
}

let toastTimer = null;
/** Show a short message (a text, or an element from `el` holding names) at the bottom of the screen. */
export function toast(text, kind = '') {
  let box = document.getElementById('toast');
  if (!box) {
    box = el('div', { attrs: { id: 'toast', role: 'status' } });
    document.body.append(box);
  }
  box.className = `show ${kind}`;
  box.replaceChildren(text);
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.className = ''; }, 3200);
}

/** Open a modal dialog over the page, named by its title; focus moves into it and stays
 * there (Tab cycles), Escape closes a closable one, and closing gives focus back to the
 * element that opened it. Return its element (close() removes it). */
export function dialog({ titleKey, titleVars, body, buttons = [], cls = '', closable = true, id = '' }) {
  closeDialog(id || undefined);
  const opener = document.activeElement;
  const titleId = `dialog-title-${++dialogCount}`;
  const box = el('div', { cls: `dialog ${cls}`, attrs: { role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': titleId } });
  if (id) box.id = id;
  const card = el('div', { cls: 'dialog-card', attrs: { tabindex: '-1' } });
  const head = el('div', { cls: 'dialog-head' }, el('h2', { key: titleKey, vars: titleVars, attrs: { id: titleId } }));
  box.close = () => {
    box.remove();
    if (opener?.isConnected && !document.querySelector('.dialog')) opener.focus?.();
  };
  if (closable) head.append(button('ui.close', () => box.close(), { cls: 'ghost close', attrs: { 'data-close': '' } }));
  card.append(head, el('div', { cls: 'dialog-body' }, ...[].concat(body)));
  if (buttons.length) card.append(el('div', { cls: 'dialog-buttons' }, ...buttons));
  box.append(card);
  box.addEventListener('keydown', (e) => keepFocus(e, box, closable));
  document.body.append(box);
  (card.querySelector('.dialog-buttons button') || card.querySelector('[data-close]') || card).focus({ preventScroll: true });
  return box;
}

let dialogCount = 0;
const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** Keep Tab inside a dialog and close a closable one on Escape. */
function keepFocus(e, box, closable) {
  if (e.key === 'Escape' && closable) {
    e.preventDefault();
    box.close();
    return;
  }
  if (e.key !== 'Tab') return;
  const items = [...box.querySelectorAll(FOCUSABLE)].filter((n) => n.getClientRects().length);
  if (!items.length) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || !box.contains(document.activeElement))) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** Close the dialog with this id, or every dialog. */
export function closeDialog(id) {
  for (const d of document.querySelectorAll(id ? `#${id}` : '.dialog')) (d.close || d.remove).call(d);
}

/** Return a countdown bar that calls onExpire after `seconds` unless stopped. */
export function countdown(seconds, onExpire) {
  const bar = el('div', { cls: 'countdown', attrs: { role: 'timer' } }, el('div', { cls: 'fill' }));
  const fill = bar.firstChild;
  fill.style.animationDuration = `${seconds}s`;
  const timer = setTimeout(onExpire, seconds * 1000);
  bar.stop = () => clearTimeout(timer);
  return bar;
}

/** Return a score table: header keys, rows of cells, a highlighted current row and totals. */
export function scoreTable({ seats, nameOf, rows, current, totals, rowKey = 'scores.round' }) {
  const table = el('table', { cls: 'scores' });
  const head = el('tr', {}, el('th', { key: 'scores.round_col' }));
  for (let s = 0; s < seats; s++) head.append(el('th', { key: nameOf(s).key, vars: nameOf(s).vars }));
  table.append(el('thead', {}, head));
  const body = el('tbody');
  rows.forEach((row, i) => body.append(scoreRow(el('th', { key: rowKey, vars: { n: i + 1 } }), row)));
  if (current) body.append(scoreRow(el('th', { key: 'scores.current', vars: { n: rows.length + 1 } }), current, 'current'));
  table.append(body);
  if (totals) table.append(el('tfoot', {}, scoreRow(el('th', { key: 'scores.total' }), totals, 'total')));
  return table;
}

function scoreRow(label, cells, cls = '') {
  const tr = el('tr', { cls });
  tr.append(label);
  for (const c of cells) tr.append(el('td', { raw: c === null || c === undefined ? '' : fmt(c) }));
  return tr;
}

/** Return a settlement list: one line per entry, the reason translated where known. */
export function settlementLines(lines) {
  const list = el('ol', { cls: 'settlement' });
  for (const line of lines) list.append(line);
  return list;
}

/** Return the translation key of an engine reason (falls back to a raw text). */
export function reasonText(prefix, reason) {
  const key = `${prefix}.${String(reason).replace(/[^a-z0-9_]/gi, '_').toLowerCase()}`;
  return t(key) === key ? null : key;
}
