// Classic Okey (okey.md): the rack, the wall and indicator in the centre, each seat's
// discard pile to its right, no melds on the table until a player shows a winning hand.
import { el, t } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { faceOf, pieceEl } from '../ui/tiles.js';
import { button, pieceRow, control } from '../ui/parts.js';
import { skeleton, opponents, myPanel, handHistory, remember, keepInPlace } from '../ui/layout.js';
import { speaker, pieceName } from '../ui/names.js';
import { discardCorner, sortButtons, handRows, settlementList, wallStack, setStatus, jokerBox, reasonTable } from '../ui/okeyparts.js';

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let rack = null;
  let obs = null;
  let prevHand = [];
  const bottom = { bl: el('div', { cls: 'corner' }), wrap: el('div', { cls: 'rack-wrap' }), br: el('div', { cls: 'corner' }) };
  const actionBar = el('div', { cls: 'action-bar' });

  function reset() {
    rack = null;
    prevHand = [];
  }

  function ensureRack() {
    if (rack) return rack;
    rack = new Rack({
      family: 'okey',
      rows: 2,
      cols: 15,
      storeKey: `meldhall.rack.${ctx.matchId}`,
      isJoker: (tok) => obs && faceOf(tok) === obs.okey,
      onSelect: () => actions(),
      onDrop: (tok, zone) => drop(tok, zone),
      onKey: (what, tok) => {
        if (what === 'discard') discard(tok);
        if (what === 'face-down') ctx.toast(t('okey.face_down'));
      },
    });
    return rack;
  }

  function render(m) {
    obs = m.observation;
    remember(ctx, 'okey-jokers', (v) => ({ ...(v || {}), [obs.hand_number]: obs.okey }));
    if (obs.last_hand) handHistory(ctx, 'okey-history', obs.last_hand.hand, obs.last_hand.hand_deltas);
    const r = ensureRack();
    const hand = obs.hand || [];
    const fresh = hand.filter((x) => !prevHand.includes(x));
    r.update(hand, prevHand.length ? fresh : []);
    prevHand = hand;
    opponents(ctx, areas, obs, { family: 'okey', counts: obs.hidden_counts, scores: obs.match_scores, turn: obs.to_act });
    center(m);
    corners(m);
    bottomArea(m);
    actions();
  }

  function center(m) {
    const take = ctx.legal((a) => a.type === 'draw').length > 0;
    const wall = wallStack(obs.wall_count, take, () => ctx.send({ type: 'draw' }));
    const indicator = el('div', { cls: 'stack drop-zone', attrs: { 'data-drop': 'finish', id: 'finish-zone' } },
      pieceEl('okey', obs.indicator), el('span', { cls: 'label', key: 'okey.indicator' }));
    control(indicator, t('a11y.finish_here', { tile: pieceName('okey', obs.indicator) }));
    indicator.addEventListener('click', () => rack.dropSelected(indicator));
    const info = jokerBox(obs.okey);
    const row = el('div', { cls: 'center-row', attrs: { style: 'display:flex;gap:18px;align-items:center' } }, wall, indicator, info);
    const extra = [];
    if (obs.shown_by !== null && obs.shown_by !== undefined) {
      extra.push(el('div', { cls: 'info-box', key: 'okey.shown', vars: speaker(ctx, obs.shown_by) }));
    }
    areas.center.replaceChildren(el('div', { cls: 'center' }, row, ...extra));
  }

  function corners(m) {
    const takeLegal = ctx.legal((a) => a.type === 'take_discard').length > 0;
    const spots = { bottom: bottom.br, right: areas.tr, top: areas.tl, left: bottom.bl };
    for (let s = 0; s < ctx.seats; s++) {
      const pile = obs.discards[s];
      const previous = (s + 1) % ctx.seats === ctx.seat;
      const node = discardCorner(ctx, s, pile, {
        family: 'okey',
        mine: s === ctx.seat,
        clickable: previous && takeLegal,
        onTake: () => ctx.send({ type: 'take_discard' }),
        onDiscard: (zone) => rack.dropSelected(zone),
        isJoker: (tok) => faceOf(tok) === obs.okey,
      });
      spots[ctx.place(s)].replaceChildren(node);
    }
  }

  function bottomArea(m) {
    keepInPlace(bottom.wrap, [myPanel(ctx, { count: obs.hand?.length, score: obs.match_scores[ctx.seat], turn: obs.to_act.includes(ctx.seat) }), rack.el, actionBar]);
    if (!bottom.row) {
      bottom.row = el('div', { cls: 'bottom-row' }, bottom.bl, bottom.wrap, bottom.br);
      areas.bottom.replaceChildren(bottom.row);
    }
    let key = 'status.wait';
    if (obs.over) key = 'status.over';
    else if (obs.to_act.includes(ctx.seat)) key = obs.phase === 'await_take' ? 'okey.status_take' : 'okey.status_discard';
    const n = ctx.nameOf(obs.turn ?? 0);
    setStatus(ctx, key, { name: t(n.key, n.vars) });
  }

  function actions() {
    if (!obs) return;
    const sel = rack.selected();
    const one = sel.length === 1 ? sel[0] : null;
    const parts = [sortButtons(rack)];
    const buttons = [];
    if (one && ctx.legal((a) => a.type === 'discard' && a.tile === one).length) buttons.push(button('act.discard', () => discard(one), { cls: 'act', attrs: { id: 'act-discard' } }));
    if (one && ctx.legal((a) => a.type === 'discard_win' && a.tile === one).length) buttons.push(button('okey.finish', () => finish(one), { cls: 'act win', attrs: { id: 'act-finish' } }));
    if (ctx.legal((a) => a.type === 'show_indicator').length) buttons.push(button('okey.show', () => ctx.send({ type: 'show_indicator' }), { cls: 'act', attrs: { id: 'act-show' } }));
    if (ctx.legal((a) => a.type === 'end_hand').length) buttons.push(button('okey.end_hand', () => ctx.send({ type: 'end_hand' }), { cls: 'act', attrs: { id: 'act-end' } }));
    if (!buttons.length && obs.to_act.includes(ctx.seat) && obs.phase === 'await_discard') buttons.push(el('span', { cls: 'prompt', key: 'okey.pick_discard' }));
    actionBar.replaceChildren(...parts, ...buttons);
  }

  async function discard(tok) {
    if (!ctx.legal((a) => a.type === 'discard' && a.tile === tok).length) return ctx.toast(t('ui.not_now'), 'bad');
    rack.selection.clear();
    await ctx.send({ type: 'discard', tile: tok });
  }

  async function finish(tok) {
    rack.selection.clear();
    await ctx.send({ type: 'discard_win', tile: tok });
  }

  async function drop(tok, zone) {
    if (zone.dataset.drop === 'discard') return discard(tok);
    if (zone.dataset.drop === 'finish') {
      if (ctx.legal((a) => a.type === 'discard_win' && a.tile === tok).length) return finish(tok);
      ctx.toast(t('code.NOT_A_WINNING_HAND'), 'bad');
    }
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify(h.scores);
    if (h.result === 'win') {
      box.append(el('p', { cls: 'lead', key: `okey.won_${h.form}`, vars: { ...speaker(ctx, h.winner), points: h.points } }));
      if (h.joker_discard) box.append(el('p', { key: 'okey.joker_finish' }));
    } else {
      box.append(el('p', { cls: 'lead', key: 'okey.no_score' }));
    }
    const okeyOf = remember(ctx, 'okey-jokers', (v) => v || {})[h.hand];
    const joker = (tok) => faceOf(tok) === okeyOf;
    const grouped = h.winner !== null && h.winner !== undefined ? { [h.winner]: h.groups } : {};
    box.append(handRows(ctx, 'okey', h.hands || [], { isJoker: joker, final: h.final_discard, grouped }));
    const lines = (h.settlement || []).map((l) => ({ seat: l.seat, amount: l.delta, reason: l.reason }));
    box.append(settlementList(ctx, lines), reasonTable(ctx, lines, h.hand_deltas, { after: h.scores }));
    return box;
  }

  function scores(o) {
    const rows = handHistory(ctx, 'okey-history', o.last_hand?.hand, o.last_hand?.hand_deltas);
    return { rows, current: null, totals: o.match_scores, rowKey: 'scores.hand' };
  }

  return { family: 'okey', reset, render, handOver, scores };
}
