// Parts shared by the rummy tables: discard corners, the wall, sort buttons, the revealed
// hands and the settlement of the end-of-hand screen, the status line.
import { el, t, fmt } from '../i18n.js';
import { pieceEl } from './tiles.js';
import { button, pieceRow, control } from './parts.js';
import { pieceName, pieceNames, speaker } from './names.js';

/** Return a seat's discard pile (top tiles fanned), a button to take when that is legal, and
 * the player's own a drop zone that `onDiscard` (a click or Enter) plays the selected tile on. */
export function discardCorner(ctx, seat, pile, { family, mine, clickable, onTake, onDiscard, isJoker, show = 3 }) {
  const tiles = pile.tiles || (pile.top ? [pile.top] : []);
  const box = el('div', { cls: `discard-pile stack${clickable ? ' clickable' : ''}`, attrs: { 'data-seat': seat } });
  const stack = el('div', { cls: 'pile' });
  const shown = tiles.slice(-show);
  shown.forEach((tok, i) => {
    const p = pieceEl(family, tok, { joker: isJoker?.(tok) });
    if (i === shown.length - 1) {
      p.classList.add('top');
      if (ctx.lastTop?.[seat] !== undefined && ctx.lastTop[seat] !== tok) p.classList.add('fresh');
    }
    stack.append(p);
  });
  ctx.lastTop = { ...(ctx.lastTop || {}), [seat]: pile.top ?? tiles[tiles.length - 1] ?? null };
  if (!shown.length) stack.append(el('div', { cls: 'drop-zone' }));
  box.append(stack, el('span', { cls: 'label', key: 'okey.pile', vars: { n: pile.count ?? tiles.length } }));
  if (mine) {
    box.dataset.drop = 'discard';
    box.id = 'discard-zone';
    box.classList.add('drop-zone');
    if (onDiscard) {
      control(box, t('a11y.discard_here'));
      box.addEventListener('click', () => onDiscard(box));
    }
  }
  const top = tiles[tiles.length - 1];
  if (clickable) {
    box.id = 'take-discard';
    box.title = t('okey.take');
    control(box, t('a11y.take', { ...speaker(ctx, seat), tile: pieceName(family, top, { joker: isJoker?.(top) }) }));
    box.addEventListener('click', onTake);
  } else if (!mine) {
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', t('a11y.discards', { ...speaker(ctx, seat), tiles: pieceNames(family, tiles.slice(-show), isJoker) || '—' }));
  }
  return box;
}

/** Return the wall (centre) stack with its count; clickable when drawing is legal. */
export function wallStack(count, clickable, onDraw, family = 'okey', labelKey = 'okey.wall') {
  const box = el('div', { cls: `stack wall${clickable ? ' clickable' : ''}`, attrs: { id: 'wall' } }, pieceEl(family, null), el('span', { cls: 'label', key: labelKey, vars: { n: count } }));
  if (clickable) {
    box.title = t('okey.draw');
    control(box, t(family === 'card' || family === 'okeycard' ? 'a11y.draw_card' : 'a11y.draw', { n: count }));
    box.addEventListener('click', onDraw);
  }
  return box;
}

/** Return the sort buttons of a rack. */
export function sortButtons(rack, modes = ['runs', 'groups', 'pairs']) {
  return el('div', { cls: 'sorts' }, ...modes.map((m) => button(`sort.${m}`, () => rack.sort(m), { attrs: { 'data-sort': m } })));
}

/** Return one row per seat with revealed tiles (null rows are skipped); `grouped[seat]`,
 * where given, lays that seat's tiles out in the melds the engine read. */
export function handRows(ctx, family, hands, { isJoker, final, extra, grouped = {} } = {}) {
  const box = el('div', { cls: 'reveal' });
  hands.forEach((tiles, s) => {
    if (!tiles || (Array.isArray(tiles) && !tiles.length && !extra?.(s))) return;
    const n = ctx.nameOf(s);
    const row = el('div', { cls: 'who' }, el('span', { key: n.key, vars: n.vars }));
    const melds = grouped[s];
    const pieces = melds?.length
      ? el('div', { cls: 'meld-row', attrs: { 'data-seat': s } }, ...melds.map((m) => el('div', { cls: 'meld' }, ...m.map((tok) => pieceEl(family, tok, { small: true, joker: isJoker?.(tok) })))))
      : pieceRow(family, tiles, { isJoker });
    if (extra) pieces.append(...extra(s));
    row.append(pieces);
    box.append(row);
  });
  if (final) box.append(el('div', { cls: 'who' }, el('span', { key: 'hand.final_discard' }), pieceRow(family, [final], { isJoker })));
  return box;
}

/** Return the settlement line by line: seat, amount, reason (translated). */
export function settlementList(ctx, lines) {
  const list = el('ol', { cls: 'settlement' });
  for (const line of lines) {
    const n = ctx.nameOf(line.seat);
    const amount = line.amount > 0 ? `+${fmt(line.amount)}` : fmt(line.amount);
    const item = el('li', { key: 'hand.line', vars: { name: t(n.key, n.vars), amount, reason: reasonOf(line.reason) } });
    if (line.factors) item.append(el('small', { cls: 'factors', raw: ` (${factorsText(line.factors)})` }));
    list.append(item);
  }
  return list;
}

/** Return the numbers an engine multiplied into a settlement line, in words ("5 tiles ×
 * 10 per tile × joker finish ×2"); a factor of 1 that only multiplies is left out. */
export function factorsText(factors) {
  const always = ['tiles', 'per_tile', 'base', 'credit', 'each', 'jokers'];
  return Object.entries(factors)
    .filter(([name, n]) => always.includes(name) || n !== 1)
    .map(([name, n]) => t(`factor.${name}`, { n: fmt(n) }))
    .join(' × ');
}

/** Return the translated words of an engine's settlement reason. */
export function reasonOf(reason) {
  const key = `why.${String(reason).toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
  const text = t(key);
  return text === key ? String(reason) : text;
}

/** Set the status line of the toolbar. */
export function setStatus(ctx, key, vars = {}) {
  ctx.status.replaceChildren(el('span', { key, vars }));
}

/** Return the centre of a meld table: each seat's melds in front of it, `middle` inside. */
export function meldCenter(ctx, middle, meldsOf) {
  const zone = (place) => el('div', { cls: `melds melds-${place}` });
  const zones = { top: zone('top'), left: zone('left'), right: zone('right'), bottom: zone('bottom') };
  for (let s = 0; s < ctx.seats; s++) {
    const z = zones[ctx.place(s)];
    z.dataset.seat = s;
    z.append(...meldsOf(s));
  }
  return el('div', { cls: 'meld-center' }, zones.top, el('div', { cls: 'meld-mid' }, zones.left, middle, zones.right), zones.bottom);
}

/** Return one meld on the table: its pieces, its value, a target for drops and clicks. */
export function meldEl(family, meld, tokens, { isJoker, value, provisional, onClick, id, owner }) {
  const box = el('div', { cls: `meld${provisional ? ' provisional' : ''}`, attrs: { 'data-drop': 'meld', 'data-meld': id, 'data-owner': owner } });
  for (const tok of tokens) box.append(pieceEl(family, tok, { small: true, joker: isJoker?.(tok) }));
  if (value !== undefined && value !== null) box.append(el('span', { cls: 'value', raw: value }));
  const label = t('a11y.meld', { tiles: pieceNames(family, tokens, isJoker) });
  if (onClick) {
    control(box, label);
    box.addEventListener('click', (e) => onClick(meld, e));
  } else {
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', label);
  }
  return box;
}

/** Return whether two token lists hold the same tokens. */
export function sameTiles(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}

/** Return the box naming the real joker of the hand (its face, drawn as a joker). */
export function jokerBox(okey) {
  return el('div', { cls: 'info-box joker-box' }, el('span', { key: 'okey.okey_is' }), ' ', pieceEl('okey', `${okey}a`, { small: true, joker: true }));
}

/** Return a table of each seat's points of a hand by reason (one column per reason of the
 * lines, {seat, amount, reason}) with the hand's total per seat: the row sums to `totals`. */
export function reasonTable(ctx, lines, totals, { totalKey = 'hand.this_hand', after } = {}) {
  const reasons = [...new Set(lines.map((l) => l.reason))];
  const table = el('table', { cls: 'scores by-reason' });
  table.append(el('tr', {}, el('th', { key: 'over.player' }), ...reasons.map((r) => el('th', { raw: reasonOf(r) })), el('th', { key: totalKey }), ...(after ? [el('th', { key: 'scores.total' })] : [])));
  for (let s = 0; s < ctx.seats; s++) {
    const n = ctx.nameOf(s);
    const cells = reasons.map((r) => {
      const sum = lines.filter((l) => l.seat === s && l.reason === r).reduce((a, l) => a + l.amount, 0);
      return el('td', { raw: sum ? fmt(sum) : '' });
    });
    table.append(el('tr', { attrs: { 'data-seat': s } }, el('th', { key: n.key, vars: n.vars }), ...cells, el('td', { cls: 'hand-total', raw: fmt(totals[s]) }), ...(after ? [el('td', { raw: fmt(after[s]) })] : [])));
  }
  return table;
}
