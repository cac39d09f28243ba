// Small shared parts of every table: seat panels, countdowns, score tables and the
// end-of-hand screen frame; the buttons, dialogs and toasts of ui/dialogs.js as well.
import { el, t, fmt } from '../i18n.js';
import { pieceEl } from './tiles.js';
export { button, control, toast, dialog, closeDialog } from './dialogs.js';

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
