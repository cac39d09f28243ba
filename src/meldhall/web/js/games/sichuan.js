// Sichuan blood-battle mahjong (sichuan.md, seed 002): the concealed hand at the bottom, each
// player's discards in rows of six in front of them, exposed melds to their right, the missing
// suit as a badge, winners' hands face up where they sat, the wall count in the centre, claim
// buttons with a countdown, and the missing-suit choice.
import { speaker } from '../ui/names.js';
import { el, t, fmt } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { pieceEl } from '../ui/tiles.js';
import { button, countdown, pieceRow, control } from '../ui/parts.js';
import { skeleton, opponents, myPanel, keepInPlace } from '../ui/layout.js';
import { setStatus, reasonOf } from '../ui/okeyparts.js';

const CLAIM_SECONDS = 12;
const SUIT_SAMPLE = { m: '5m', p: '5p', s: '5s' };

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let rack = null;
  let obs = null;
  let prevHand = [];
  let timer = null;
  let timerFor = null;
  let autoPassed = null;
  const wrap = el('div', { cls: 'rack-wrap' });
  const own = el('div', { cls: 'own-row', attrs: { style: 'display:flex;gap:10px;align-items:flex-end' } }); // the rack and the own melds
  const actionBar = el('div', { cls: 'action-bar' });
  ctx.board.classList.add('mahjong-board');

  function reset() {
    rack = null;
    prevHand = [];
  }

  function badge(seat) {
    const suit = obs.missing?.[seat] ?? (seat === ctx.seat ? obs.my_declaration : null);
    if (!suit) return obs.declared?.[seat] ? [el('span', { cls: 'chip', key: 'mj.declared' })] : [];
    return [el('span', { cls: 'suit-badge', attrs: { 'data-missing': suit } }, el('span', { key: 'mj.missing' }), pieceEl('mahjong', SUIT_SAMPLE[suit], { small: true }))];
  }

  function melds(seat) {
    const row = el('div', { cls: 'piece-row mj-melds' });
    for (const m of obs.melds[seat] || []) {
      const group = el('div', { cls: 'meld' });
      const tiles = m.tiles.length ? m.tiles : [null, null, null, null];
      tiles.forEach((tok) => group.append(pieceEl('mahjong', tok, { small: true })));
      row.append(group);
    }
    const won = (obs.winners || []).filter((w) => w.seat === seat);
    for (const w of won) {
      row.append(el('div', { cls: 'meld won' }, ...w.hand.map((tok) => pieceEl('mahjong', tok, { small: true })), pieceEl('mahjong', w.tile, { small: true, cls: 'win' })));
    }
    return row;
  }

  function render(m) {
    obs = m.observation;
    if ((obs.phase === 'claim' || obs.phase === 'rob') && m.legal.length === 1 && m.legal[0].json.type === 'pass' && autoPassed !== m.state_id) {
      autoPassed = m.state_id; // nothing to claim: answer at once, as a table does
      ctx.send(m.legal[0].json);
    }
    if (!rack) {
      rack = new Rack({ family: 'mahjong', rows: 1, cols: 17, defaultSort: 'suits', storeKey: `meldhall.rack.${ctx.matchId}`,
        onSelect: () => actions(), onDrop: (tok, zone) => zone.dataset.drop === 'discard' && discard(tok), onKey: (w, tok) => w === 'discard' && discard(tok) });
    }
    const hand = obs.hand || [];
    rack.update(hand, obs.drawn ? [obs.drawn] : []);
    prevHand = hand;
    opponents(ctx, areas, obs, { family: 'mahjong', counts: obs.hidden_counts.map((n, s) => (obs.active[s] ? n : 0)), scores: obs.match_scores, turn: obs.to_act,
      extra: (s) => [...badge(s), obs.active[s] ? null : el('span', { cls: 'chip', key: 'mj.won' })].filter(Boolean) });
    for (let s = 0; s < ctx.seats; s++) if (s !== ctx.seat) areas[ctx.place(s)].append(melds(s));
    center();
    // a seat that has won shows its hand in the won meld only: both would not fit one row
    keepInPlace(own, obs.active[ctx.seat] ? [rack.el, melds(ctx.seat)] : [melds(ctx.seat)]);
    keepInPlace(wrap, [myPanel(ctx, { count: hand.length, score: obs.match_scores[ctx.seat], turn: obs.to_act.includes(ctx.seat), extra: badge(ctx.seat) }), own, actionBar]);
    if (!wrap.parentNode) areas.bottom.replaceChildren(wrap);
    let key = 'status.wait';
    if (obs.over) key = 'status.over';
    else if (obs.to_act.includes(ctx.seat)) key = `mj.status_${obs.phase}`;
    else if (!obs.active[ctx.seat]) key = 'mj.status_won';
    else if (obs.phase === 'declare' || obs.phase === 'exchange') key = `mj.wait_${obs.phase}`;
    const n = ctx.nameOf(obs.turn ?? 0);
    setStatus(ctx, key, { name: t(n.key, n.vars) });
    actions();
  }

  function center() {
    const grid = el('div', { cls: 'mj-center' });
    for (let s = 0; s < ctx.seats; s++) {
      const rows = el('div', { cls: `mj-discards place-${ctx.place(s)}`, attrs: { 'data-seat': s } });
      const last = obs.last_discard && obs.last_discard.seat === s ? obs.last_discard.tile : null;
      for (const tok of obs.discards[s]) {
        const p = pieceEl('mahjong', tok, { small: true });
        if (tok === last) p.classList.add('fresh', 'last');
        rows.append(p);
      }
      grid.append(rows);
    }
    const mid = el('div', { cls: 'mj-mid info-box' }, el('div', { key: 'mj.wall', vars: { n: obs.wall } }), el('div', { key: 'mj.deal', vars: { n: obs.hand_number, of: obs.deals } }));
    const dz = el('div', { cls: 'drop-zone', attrs: { 'data-drop': 'discard', id: 'discard-zone' } }, el('span', { cls: 'label', key: 'mj.drop_discard' }));
    control(dz, t('a11y.discard_here'));
    dz.addEventListener('click', () => rack.dropSelected(dz));
    grid.append(el('div', { cls: 'place-center' }, mid, dz));
    const claims = claimBar();
    areas.center.replaceChildren(grid, ...(claims ? [claims] : []));
  }

  function claimBar() {
    const mine = obs.to_act.includes(ctx.seat);
    if (!mine || !(obs.phase === 'claim' || obs.phase === 'rob') || !obs.window) {
      if (timer) timer.stop();
      timer = null;
      timerFor = null;
      return null;
    }
    const tag = `${ctx.state.state_id}`;
    const bar = el('div', { cls: 'claim-bar', attrs: { id: 'claims' } });
    const n = ctx.nameOf(obs.window.from);
    bar.append(el('div', { key: obs.phase === 'rob' ? 'mj.claim_rob' : 'mj.claim_discard', vars: { name: t(n.key, n.vars) } }), pieceEl('mahjong', obs.window.tile, {}));
    const row = el('div', { cls: 'action-bar' });
    for (const type of ['win', 'kong', 'pung', 'pass']) {
      for (const a of ctx.legal((x) => x.type === type)) row.append(button(`mj.${type}`, () => answer(a.json), { cls: `act${type === 'win' ? ' win' : ''}`, attrs: { 'data-claim': type } }));
    }
    bar.append(row);
    if (timerFor !== tag) {
      if (timer) timer.stop();
      timer = countdown(CLAIM_SECONDS, () => {
        const pass = ctx.legal((x) => x.type === 'pass')[0];
        if (pass && ctx.state.state_id === Number(tag)) answer(pass.json);
      });
      timerFor = tag;
    }
    bar.append(timer);
    return bar;
  }

  async function answer(action) {
    if (timer) timer.stop();
    await ctx.send(action);
  }

  function actions() {
    if (!obs || !rack) return;
    const sel = rack.selected();
    const buttons = [];
    const mine = obs.to_act.includes(ctx.seat);
    if (mine && obs.phase === 'declare') {
      buttons.push(el('span', { cls: 'prompt', key: 'mj.choose_missing' }));
      for (const a of ctx.legal((x) => x.type === 'declare')) {
        const count = (obs.hand || []).filter((tok) => tok[1] === a.json.suit).length;
        const b = button('mj.suit', () => ctx.send(a.json), { cls: 'act', vars: { n: count, suit: t(`piece.suit_${a.json.suit}`) }, attrs: { 'data-suit': a.json.suit } });
        b.prepend(pieceEl('mahjong', SUIT_SAMPLE[a.json.suit], { small: true }));
        buttons.push(b);
      }
    }
    if (mine && obs.phase === 'exchange' && sel.length === 3) {
      buttons.push(button('mj.exchange', () => ctx.send({ type: 'exchange', tiles: sel }), { cls: 'act', attrs: { id: 'act-exchange' } }));
    }
    if (mine && obs.phase === 'play') {
      if (sel.length === 1 && ctx.legal((a) => a.type === 'discard' && a.tile === sel[0]).length) buttons.push(button('act.discard', () => discard(sel[0]), { cls: 'act', attrs: { id: 'act-discard' } }));
      for (const a of ctx.legal((x) => x.type === 'win')) buttons.push(button('mj.win', () => ctx.send(a.json), { cls: 'act win', attrs: { id: 'act-win' } }));
      for (const a of ctx.legal((x) => x.type === 'concealed_kong' || x.type === 'added_kong')) {
        const b = button('mj.kong', () => ctx.send(a.json), { cls: 'act', attrs: { 'data-kong': a.json.kind } });
        b.append(pieceEl('mahjong', a.json.kind, { small: true }));
        buttons.push(b);
      }
      if (!buttons.length) buttons.push(el('span', { cls: 'prompt', key: 'mj.hint_discard' }));
    }
    actionBar.replaceChildren(el('div', { cls: 'sorts' }, button('sort.suits', () => rack.sort('suits'), { attrs: { 'data-sort': 'suits' } })), ...buttons);
  }

  async function discard(tok) {
    if (!ctx.legal((a) => a.type === 'discard' && a.tile === tok).length) return ctx.toast(t('ui.not_now'), 'bad');
    rack.selection.clear();
    await ctx.send({ type: 'discard', tile: tok });
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify(h.scores);
    box.append(el('p', { cls: 'lead', key: `mj.end_${h.termination}` }));
    const reveal = el('div', { cls: 'reveal' });
    h.hands.forEach((seatHand, s) => {
      const n = ctx.nameOf(s);
      const row = el('div', { cls: 'who' }, el('span', {}, el('span', { key: n.key, vars: n.vars }), el('br'), el('small', { key: `mj.status_end_${seatHand.status}` })));
      const tiles = pieceRow('mahjong', seatHand.hand);
      for (const m of seatHand.melds) tiles.append(el('span', { cls: 'gap' }), ...m.tiles.map((tok) => pieceEl('mahjong', tok, { small: true })));
      if (seatHand.win_tile) tiles.append(el('span', { cls: 'gap' }), pieceEl('mahjong', seatHand.win_tile, { small: true, cls: 'win' }));
      row.append(tiles);
      reveal.append(row);
    });
    box.append(reveal);
    const wins = el('ol', { cls: 'settlement', attrs: { id: 'mj-wins' } });
    for (const w of h.winners) {
      const fans = Object.entries(w.fans).map(([k, v]) => `${t(`fan.${k}`)} ${v}`).join(', ') || t('fan.none');
      const line = el('li', {}, el('span', { key: 'mj.win_line', vars: { ...speaker(ctx, w.seat), by: t(`mj.by_${w.by}`), fans, fan: w.fan, points: w.points } }));
      if (w.bonus) line.append(' ', el('span', { cls: 'bonus', key: 'mj.bonus_line', vars: { bonus: w.bonus } }));
      wins.append(line);
    }
    if (h.winners.length) box.append(el('h3', { key: 'mj.wins' }), wins);
    const pays = el('ol', { cls: 'settlement' });
    for (const [payer, receiver, amount, reason] of h.transfers) {
      const a = ctx.nameOf(payer);
      const b = receiver < 0 ? { key: 'mj.pot', vars: {} } : ctx.nameOf(receiver);
      pays.append(el('li', { key: 'mj.pay_line', vars: { payer: t(a.key, a.vars), receiver: t(b.key, b.vars), amount, reason: reasonOf(reason) } }));
    }
    box.append(el('h3', { key: 'mj.payments' }), h.transfers.length ? pays : el('p', { key: 'mj.no_payments' }));
    box.append(el('p', { key: 'hand.scores_after', vars: { scores: h.scores.map((v, s) => `${t(ctx.nameOf(s).key, ctx.nameOf(s).vars)} ${v > 0 ? '+' : ''}${fmt(v)}`).join(' · ') } }));
    return box;
  }

  function scores(o) {
    return { rows: [], current: o.scores, totals: o.match_scores, rowKey: 'scores.deal' };
  }

  return { family: 'mahjong', reset, render, handOver, scores };
}
