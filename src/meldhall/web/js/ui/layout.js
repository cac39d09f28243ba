// The board skeleton shared by the four-seat tables: areas around the centre, the player's
// own area at the bottom, and helpers to place each seat where it sits.
import { el } from '../i18n.js';
import { seatPanel, hiddenRow } from './parts.js';

/** Return the board's areas (top, left, right, center, bottom, tl, tr), created once. */
export function skeleton(board) {
  if (board.areas) return board.areas;
  const areas = {};
  for (const name of ['tl', 'top', 'tr', 'left', 'center', 'right', 'bottom']) {
    areas[name] = el('div', { cls: `area-${name}${['top', 'left', 'right'].includes(name) ? ' seat-area' : ''}` });
    board.append(areas[name]);
  }
  board.areas = areas;
  return areas;
}

/** Fill the opponents' areas with their panels and face-down counts. */
export function opponents(ctx, areas, obs, { family, counts, scores, turn, extra, countKey }) {
  for (const place of ['top', 'left', 'right']) areas[place].replaceChildren();
  for (let s = 0; s < ctx.seats; s++) {
    if (s === ctx.seat) continue;
    const area = areas[ctx.place(s)];
    const name = ctx.nameOf(s);
    area.append(seatPanel({
      seat: s,
      nameKey: name.key,
      nameVars: name.vars,
      bot: ctx.players[s]?.kind === 'bot',
      level: ctx.players[s]?.level,
      count: counts ? counts[s] : null,
      countKey,
      score: scores ? scores[s] : null,
      turn: turn.includes(s),
      extra: extra ? extra(s) : [],
    }));
    if (counts) area.append(hiddenRow(family, counts[s], 15));
  }
}

/** Return the player's own panel. */
/** Make `parts` the children of `wrap`, in order, replacing only what changed: an element
 * already in place (the rack) never leaves the page, so a tile being dragged keeps its pointer
 * when a new state arrives mid-drag. */
export function keepInPlace(wrap, parts) {
  parts.forEach((part, i) => {
    const here = wrap.children[i];
    if (here === part) return;
    if (here && !parts.includes(here)) here.replaceWith(part);
    else wrap.insertBefore(part, here || null);
  });
  while (wrap.children.length > parts.length) wrap.lastElementChild.remove();
}

export function myPanel(ctx, { count, score, turn, extra, countKey }) {
  const name = ctx.nameOf(ctx.seat);
  return seatPanel({ seat: ctx.seat, nameKey: name.key, nameVars: name.vars, count, score, turn, extra, countKey });
}

/** Keep a value per match in the browser (score history and the like). */
export function remember(ctx, key, update) {
  const k = `meldhall.${key}.${ctx.matchId}`;
  let value;
  try {
    value = JSON.parse(localStorage.getItem(k) || 'null');
  } catch {
    value = null;
  }
  const next = update(value);
  localStorage.setItem(k, JSON.stringify(next));
  return next;
}

/** Record one finished hand's row (per-seat values) under its hand number; return every
 * recorded row in hand order. Kept per match in the browser. */
export function handHistory(ctx, name, hand, row) {
  const rows = remember(ctx, name, (v) => {
    const out = v || {};
    if (hand !== null && hand !== undefined && row) out[hand] = row;
    return out;
  });
  return Object.keys(rows).sort((a, b) => a - b).map((k) => rows[k]);
}
