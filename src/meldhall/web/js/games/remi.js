// Remi (remi.md, seed 003): cards on a rack, the stock and the discard pile, every player's
// melds on the table; open (etalare) with 30 points, lay off (lipire), exchange a joker,
// discard, close with the last card.
import { speaker, pieceName } from '../ui/names.js';
import { el, t, fmt } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { pieceEl } from '../ui/tiles.js';
import { button, control } from '../ui/parts.js';
import { skeleton, opponents, myPanel, handHistory, keepInPlace } from '../ui/layout.js';
import { sortButtons, handRows, wallStack, setStatus, meldCenter, meldEl, sameTiles } from '../ui/okeyparts.js';
import { refusalWords } from '../board.js';

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let rack = null;
  let obs = null;
  let prevHand = [];
  const wrap = el('div', { cls: 'rack-wrap' });
  const actionBar = el('div', { cls: 'action-bar' });
  let worth = { key: null, node: null }; // the selection last weighed as an opening
  const isJoker = (tok) => tok.startsWith('JK');

  function reset() {
    rack = null;
    prevHand = [];
  }

  function render(m) {
    obs = m.observation;
    worth = { key: null, node: null };
    if (obs.last_result) handHistory(ctx, 'remi-history', obs.last_result.hand, obs.last_result.penalties);
    if (!rack) {
      rack = new Rack({ family: 'card', rows: 2, cols: 14, storeKey: `meldhall.rack.${ctx.matchId}`, isJoker: () => false,
        onSelect: () => actions(), onDrop: (tok, zone, ev) => drop(tok, zone, ev), onKey: (w, tok) => w === 'discard' && discard(tok) });
    }
    const hand = obs.hand || [];
    rack.update(hand, prevHand.length ? hand.filter((x) => !prevHand.includes(x)) : []);
    prevHand = hand;
    opponents(ctx, areas, obs, { family: 'card', countKey: 'seat.cards', counts: obs.hidden_counts, scores: obs.match_scores, turn: obs.to_act,
      extra: (s) => [obs.opened[s] ? el('span', { cls: 'chip', key: 'remi.opened' }) : null, obs.active[s] ? null : el('span', { cls: 'chip', key: 'remi.out' })].filter(Boolean) });
    const canTakeTop = ctx.legal((a) => a.type === 'draw_discard').length > 0;
    const pile = el('div', { cls: `stack discard-pile${canTakeTop ? ' clickable' : ''}`, attrs: { id: 'discard-zone', 'data-drop': 'discard' } });
    const spread = el('div', { cls: 'pile' });
    for (const tok of obs.discard.slice(-6)) spread.append(pieceEl('card', tok));
    if (!obs.discard.length) spread.append(el('div', { cls: 'drop-zone' }));
    pile.append(spread, el('span', { cls: 'label', key: 'remi.pile', vars: { n: obs.discard.length } }));
    if (canTakeTop) {
      pile.id = 'take-discard';
      control(pile, t('a11y.take_top', { tile: pieceName('card', obs.discard[obs.discard.length - 1]) }));
      pile.addEventListener('click', () => ctx.send({ type: 'draw_discard' }));
    } else {
      control(pile, t('a11y.discard_here'));
      pile.addEventListener('click', () => rack.dropSelected(pile));
    }
    const middle = el('div', { cls: 'center', attrs: { style: 'flex-direction:row;gap:16px' } },
      wallStack(obs.stock, ctx.legal((a) => a.type === 'draw_stock').length > 0, () => ctx.send({ type: 'draw_stock' }), 'card', 'remi.stock'),
      pile,
      el('div', { cls: 'info-box' }, el('span', { key: 'remi.hand', vars: { n: obs.hand_number } })));
    areas.center.replaceChildren(meldCenter(ctx, middle, (s) => obs.melds.filter((x) => x.owner === s).map((x) => meldEl('card', x, x.cards, {
      id: x.id, owner: x.owner, value: x.value, onClick: (meld, e) => clickMeld(meld, e),
    }))));
    keepInPlace(wrap, [myPanel(ctx, { countKey: 'seat.cards', count: hand.length, score: obs.totals[ctx.seat], turn: obs.to_act.includes(ctx.seat),
      extra: obs.opened[ctx.seat] ? [el('span', { cls: 'chip', key: 'remi.opened' })] : [] }), rack.el, actionBar]);
    if (!wrap.parentNode) areas.bottom.replaceChildren(wrap);
    let key = 'status.wait';
    if (obs.over) key = 'status.over';
    else if (obs.to_act.includes(ctx.seat)) key = `remi.status_${obs.phase}`;
    const n = ctx.nameOf(obs.current ?? 0);
    setStatus(ctx, key, { name: t(n.key, n.vars) });
    actions();
  }

  function actions() {
    if (!obs || !rack) return;
    const sel = rack.selected();
    const buttons = [];
    const mine = obs.to_act.includes(ctx.seat) && obs.phase === 'play';
    if (mine) {
      if (sel.length === 1 && ctx.legal((a) => a.type === 'discard' && a.card === sel[0]).length) buttons.push(button('act.discard', () => discard(sel[0]), { cls: 'act', attrs: { id: 'act-discard' } }));
      if (sel.length >= ctx.minMeld && !obs.opened[ctx.seat]) buttons.push(button('remi.open', () => open(sel), { cls: 'act', attrs: { id: 'act-open' } }), weigh(sel));
      if (sel.length >= ctx.minMeld && obs.opened[ctx.seat]) buttons.push(button('remi.meld', () => meld(sel), { cls: 'act', attrs: { id: 'act-meld' } }));
      if (!buttons.length) buttons.push(el('span', { cls: 'prompt', key: obs.opened[ctx.seat] ? 'remi.hint_play' : 'remi.hint_open' }));
    }
    actionBar.replaceChildren(sortButtons(rack, ['runs', 'groups']), ...buttons);
  }

  function meldSpec(cards) {
    const listed = ctx.legal((a) => (a.type === 'meld' && sameTiles(a.meld.cards, cards)) || (a.type === 'open' && a.melds.length === 1 && sameTiles(a.melds[0].cards, cards)));
    if (listed.length) return listed[0].json.meld || listed[0].json.melds[0];
    return { cards };
  }

  /** Return the melds of an opening with the selected cards: every group of adjacent
   * selected cards on the rack (one meld each), else the whole selection as one meld. */
  function openingSpecs(sel) {
    const groups = rack.groups().map((g) => g.filter((x) => sel.includes(x))).filter((g) => g.length);
    const melds = groups.length > 1 && groups.every((g) => g.length >= ctx.minMeld) ? groups : [rack.selected()];
    return melds.map(meldSpec);
  }

  /** Return the live worth of the selection as an opening, as the engine counts it against
   * the need ("Worth 25 of 30"), filled in when the server's appraisal arrives. */
  function weigh(sel) {
    const melds = openingSpecs(sel);
    const key = JSON.stringify(melds);
    if (worth.key === key) return worth.node;
    const node = el('b', { cls: 'laid short', attrs: { id: 'open-worth', 'aria-live': 'polite' } });
    worth = { key, node };
    ctx.appraise({ type: 'open', melds }).then((a) => {
      if (!a || worth.key !== key) return;
      const need = obs.options.opening_minimum;
      const opened = a.ok ? a.events.find((e) => e.kind === 'open') : null;
      const value = opened ? opened.value : a.details?.value;
      if (value === undefined || value === null) {
        const words = refusalWords({ code: 'illegal_action', engine_code: a.code, details: a.details });
        node.replaceChildren(t(words.key, words.vars));
        return;
      }
      node.classList.toggle('short', value < need);
      node.replaceChildren(t('remi.worth_live', { value: fmt(value), need: fmt(need) }));
    });
    return node;
  }

  /** Open with the selected cards (see ``openingSpecs``). */
  async function open(sel) {
    const specs = openingSpecs(sel);
    const listed = ctx.legal((a) => a.type === 'open' && a.melds.length === specs.length && a.melds.every((m, i) => sameTiles(m.cards, specs[i].cards)));
    rack.selection.clear();
    await ctx.send(listed.length ? listed[0].json : { type: 'open', melds: specs });
  }

  async function meld(sel) {
    rack.selection.clear();
    await ctx.send({ type: 'meld', meld: meldSpec(sel) });
  }

  async function clickMeld(meld, e) {
    const sel = rack.selected();
    if (!sel.length) return;
    const swaps = ctx.legal((a) => a.type === 'exchange' && a.meld === meld.id && sameTiles(a.give, sel));
    if (swaps.length) {
      rack.selection.clear();
      return ctx.send(swaps[0].json);
    }
    if (sel.length !== 1) return;
    const options = ctx.legal((a) => a.type === 'lay_off' && a.card === sel[0] && a.meld === meld.id);
    let end = null;
    if (meld.kind === 'run') {
      const box = (e.currentTarget || e.target.closest('.meld')).getBoundingClientRect();
      const side = e.clientX < box.left + box.width / 2 ? 'low' : 'high';
      end = options.length ? (options.find((a) => a.json.end === side) || options[0]).json.end : side;
    }
    rack.selection.clear();
    await ctx.send({ type: 'lay_off', card: sel[0], meld: meld.id, end });
  }

  async function discard(tok) {
    if (!ctx.legal((a) => a.type === 'discard' && a.card === tok).length) return ctx.toast(t('ui.not_now'), 'bad');
    rack.selection.clear();
    await ctx.send({ type: 'discard', card: tok });
  }

  async function drop(tok, zone, ev) {
    if (zone.dataset.drop === 'discard') return discard(tok);
    if (zone.dataset.drop === 'meld') {
      const meld = obs.melds.find((x) => String(x.id) === zone.dataset.meld);
      if (!rack.selection.has(tok)) {
        rack.selection.clear();
        rack.selection.add(tok);
      }
      if (meld) await clickMeld(meld, { clientX: ev.clientX, target: zone, currentTarget: zone });
    }
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify(h.totals);
    if (h.closer !== null && h.closer !== undefined) {
      box.append(el('p', { cls: 'lead', key: h.kalooki ? 'remi.kalooki' : 'remi.closed', vars: speaker(ctx, h.closer) }));
    } else box.append(el('p', { cls: 'lead', key: 'remi.dead' }));
    box.append(handRows(ctx, 'card', h.hands));
    const table = el('table', { cls: 'scores' });
    table.append(el('tr', {}, el('th', { key: 'over.player' }), el('th', { key: 'remi.col_cards' }), el('th', { key: 'remi.col_extra' }), el('th', { key: 'remi.col_penalty' }), el('th', { key: 'scores.total' })));
    for (const line of h.lines) {
      const n = ctx.nameOf(line.seat);
      const extra = (line.kalooki || 0) + (line.unopened || 0);
      table.append(el('tr', {}, el('th', { key: n.key, vars: n.vars }), el('td', { raw: fmt(line.points) }), el('td', { raw: extra ? `+${fmt(extra)}` : '' }), el('td', { raw: fmt(line.penalty) }), el('td', { raw: fmt(h.totals[line.seat]) })));
    }
    box.append(table);
    for (const s of h.eliminated || []) {
      box.append(el('p', { key: 'remi.eliminated', vars: speaker(ctx, s) }));
    }
    return box;
  }

  function scores(o) {
    const rows = handHistory(ctx, 'remi-history', o.last_result?.hand, o.last_result?.penalties);
    return { rows, current: o.over ? null : o.hidden_counts.map(() => null), totals: o.match_scores, rowKey: 'scores.hand' };
  }

  return { family: 'card', reset, render, handOver, scores };
}
