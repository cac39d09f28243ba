// Tile Rummy 500 (tile-rummy.md, seed 001): the rack, each player's melds in front of them,
// the discard pile spread so every tile can be seen and taken from any depth, the stock.
import { el, t, fmt } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { pieceEl } from '../ui/tiles.js';
import { button, dialog, closeDialog } from '../ui/parts.js';
import { skeleton, opponents, myPanel, handHistory } from '../ui/layout.js';
import { sortButtons, handRows, wallStack, setStatus, meldCenter, meldEl, sameTiles } from '../ui/okeyparts.js';

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let rack = null;
  let obs = null;
  let prevHand = [];
  let pick = null; // the pile index chosen to take from (1 = bottom)
  const dissolve = new Set(); // own melds marked to be rearranged
  const wrap = el('div', { cls: 'rack-wrap' });
  const actionBar = el('div', { cls: 'action-bar' });
  const isJoker = (tok) => tok[0] === 'S';

  function reset() {
    rack = null;
    prevHand = [];
  }

  function render(m) {
    obs = m.observation;
    if (obs.last_round) handHistory(ctx, 'rummy-history', obs.last_round.round, obs.last_round.scores);
    if (!rack) {
      rack = new Rack({ family: 'okey', rows: 2, cols: 15, storeKey: `meldhall.rack.${ctx.matchId}`, isJoker: () => false,
        onSelect: () => actions(), onDrop: (tok, zone, ev) => drop(tok, zone, ev), onKey: (w, tok) => w === 'discard' && discard(tok) });
    }
    const hand = obs.hand || [];
    rack.update(hand, prevHand.length ? hand.filter((x) => !prevHand.includes(x)) : []);
    prevHand = hand;
    if (obs.phase !== 'draw' || !obs.to_act.includes(ctx.seat)) pick = null;
    if (obs.phase !== 'play' || !obs.to_act.includes(ctx.seat)) dissolve.clear();
    for (const id of [...dissolve]) if (!obs.melds.some((x) => x.id === id)) dissolve.delete(id);
    opponents(ctx, areas, obs, { family: 'okey', counts: obs.rack_counts, scores: obs.table_points, turn: obs.to_act,
      extra: (s) => [el('span', { key: 'rummy.wins', vars: { n: obs.round_wins[s] } })] });
    const middle = el('div', { cls: 'center' },
      el('div', { attrs: { style: 'display:flex;gap:12px;align-items:center' } },
        wallStack(obs.stock_count, ctx.legal((a) => a.type === 'draw').length > 0, () => ctx.send({ type: 'draw' })),
        el('div', { cls: 'info-box' }, el('span', { key: 'rummy.round', vars: { n: obs.round } }))),
      pileRow());
    areas.center.replaceChildren(meldCenter(ctx, middle, (s) => obs.melds.filter((x) => x.owner === s).map((x) => {
      const node = meldEl('okey', x, x.tiles, { id: x.id, owner: x.owner, isJoker, value: x.value, onClick: (meld, e) => clickMeld(meld, e) });
      if (dissolve.has(x.id)) node.classList.add('provisional');
      return node;
    })));
    wrap.replaceChildren(myPanel(ctx, { count: hand.length, score: obs.table_points[ctx.seat], turn: obs.to_act.includes(ctx.seat),
      extra: [el('span', { key: 'rummy.wins', vars: { n: obs.round_wins[ctx.seat] } })] }), rack.el, actionBar);
    if (!wrap.parentNode) areas.bottom.replaceChildren(wrap);
    let key = 'status.wait';
    if (obs.over) key = 'status.over';
    else if (obs.to_act.includes(ctx.seat)) key = `rummy.status_${obs.phase}`;
    const n = ctx.nameOf(obs.turn ?? 0);
    setStatus(ctx, key, { name: t(n.key, n.vars) });
    actions();
  }

  function pileRow() {
    const canTake = obs.to_act.includes(ctx.seat) && obs.phase === 'draw';
    const row = el('div', { cls: 'pile-spread', attrs: { id: 'discard-zone', 'data-drop': 'discard' } });
    obs.pile.forEach((tok, i) => {
      const index = i + 1;
      const p = pieceEl('okey', tok, { small: true, joker: isJoker(tok) });
      p.dataset.index = index;
      if (canTake && ctx.legal((a) => a.type === 'take' && a.index === index).length) {
        p.classList.add('hint');
        p.addEventListener('click', () => {
          pick = pick === index ? null : index;
          render(ctx.state);
        });
      }
      if (pick !== null && index >= pick) p.classList.add('selected');
      row.append(p);
    });
    return el('div', { cls: 'stack' }, row, el('span', { cls: 'label', key: 'rummy.pile', vars: { n: obs.pile.length } }));
  }

  function actions() {
    if (!obs || !rack) return;
    const sel = rack.selected();
    const buttons = [];
    const mine = obs.to_act.includes(ctx.seat);
    if (mine && obs.phase === 'play') {
      if (sel.length === 1 && ctx.legal((a) => a.type === 'discard' && a.tile === sel[0]).length) buttons.push(button('act.discard', () => discard(sel[0]), { cls: 'act', attrs: { id: 'act-discard' } }));
      if (sel.length >= 3) buttons.push(button('rummy.meld', () => meld(sel), { cls: 'act', attrs: { id: 'act-meld' } }));
      if (dissolve.size) buttons.push(button('rummy.rearrange', () => rearrange(sel), { cls: 'act', attrs: { id: 'act-rearrange' } }));
      if (ctx.legal((a) => a.type === 'end').length) buttons.push(button('rummy.end', () => ctx.send({ type: 'end' }), { cls: 'act', attrs: { id: 'act-end' } }));
      if (!buttons.length) buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_play' }));
    }
    if (mine && obs.phase === 'draw') {
      if (pick !== null) {
        buttons.push(button('rummy.take', () => take(sel), { cls: 'act', attrs: { id: 'act-take' } }));
        buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_take' }));
      } else buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_draw' }));
    }
    actionBar.replaceChildren(sortButtons(rack, ['runs', 'groups']), ...buttons);
  }

  function meldJson(tiles) {
    const listed = ctx.legal((a) => a.type === 'meld' && sameTiles(a.tiles, tiles));
    if (listed.length) return { kind: listed[0].json.kind, tiles: listed[0].json.tiles };
    const nums = tiles.filter((x) => !isJoker(x)).map((x) => Number(/\d+/.exec(x)[0]));
    return { kind: nums.every((n) => n === nums[0]) ? 'set' : 'run', tiles };
  }

  async function meld(sel) {
    rack.selection.clear();
    await ctx.send({ type: 'meld', ...meldJson(sel) });
  }

  async function take(sel) {
    const tile = obs.pile[pick - 1];
    const withTile = [...sel, tile];
    const listed = ctx.legal((a) => a.type === 'take' && a.index === pick && a.use.type === 'meld' && sameTiles(a.use.tiles, withTile));
    const action = listed.length ? listed[0].json : sel.length >= 2 ? { type: 'take', index: pick, use: { type: 'meld', ...meldJson(withTile) } } : null;
    const adds = ctx.legal((a) => a.type === 'take' && a.index === pick && a.use.type === 'add');
    const chosen = action || adds[0]?.json;
    if (!chosen) return ctx.toast(t('rummy.take_needs'), 'bad');
    rack.selection.clear();
    pick = null;
    await ctx.send(chosen);
  }

  async function clickMeld(meld, e) {
    const sel = rack.selected();
    if (!sel.length && meld.owner === ctx.seat && obs.phase === 'play' && obs.to_act.includes(ctx.seat)) {
      if (dissolve.has(meld.id)) dissolve.delete(meld.id);
      else dissolve.add(meld.id);
      render(ctx.state);
      return;
    }
    if (sel.length !== 1) return;
    const tok = sel[0];
    const options = ctx.legal((a) => a.type === 'add' && a.tile === tok && a.meld === meld.id);
    let end = null;
    if (options.length) {
      const box = (e.currentTarget || e.target.closest('.meld')).getBoundingClientRect();
      const side = e.clientX < box.left + box.width / 2 ? 'low' : 'high';
      end = (options.find((a) => a.json.end === side) || options[0]).json.end;
    } else if (meld.kind === 'run') {
      const box = (e.currentTarget || e.target.closest('.meld')).getBoundingClientRect();
      end = e.clientX < box.left + box.width / 2 ? 'low' : 'high';
    }
    rack.selection.clear();
    await ctx.send({ type: 'add', tile: tok, meld: meld.id, end });
  }

  /** Rearrange: the tiles of the marked melds (and the selected rack tiles) are laid out on
   * a small rack; each group of adjacent tiles becomes one new meld. */
  function rearrange(sel) {
    const tiles = [...obs.melds.filter((x) => dissolve.has(x.id)).flatMap((x) => x.tiles), ...sel];
    const board = new Rack({ family: 'okey', rows: 2, cols: 14, storeKey: null });
    board.sort('runs', tiles);
    const go = async () => {
      const melds = board.groups().map(meldJson);
      closeDialog('rearrange');
      const action = { type: 'rearrange', dissolve: [...dissolve], melds, feeds: [] };
      dissolve.clear();
      rack.selection.clear();
      await ctx.send(action);
    };
    dialog({ titleKey: 'rummy.rearrange', body: [el('p', { key: 'rummy.rearrange_hint' }), board.el, el('div', { cls: 'action-bar' }, sortButtons(board, ['runs', 'groups']))],
      buttons: [button('rummy.rearrange_go', go, { cls: 'primary', attrs: { id: 'rearrange-go' } })], id: 'rearrange', cls: 'wide rearrange' });
  }

  async function discard(tok) {
    if (!ctx.legal((a) => a.type === 'discard' && a.tile === tok).length) return ctx.toast(t('ui.not_now'), 'bad');
    rack.selection.clear();
    await ctx.send({ type: 'discard', tile: tok });
  }

  async function drop(tok, zone, ev) {
    if (zone.dataset.drop === 'discard') return discard(tok);
    if (zone.dataset.drop === 'meld') {
      const meld = obs.melds.find((x) => String(x.id) === zone.dataset.meld);
      rack.selection.clear();
      rack.selection.add(tok);
      if (meld) await clickMeld(meld, { clientX: ev.clientX, target: zone, currentTarget: zone });
    }
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify(h.scores);
    if (h.went_out !== null && h.went_out !== undefined) {
      const n = ctx.nameOf(h.went_out);
      box.append(el('p', { cls: 'lead', key: 'rummy.went_out', vars: { name: t(n.key, n.vars) } }));
    } else box.append(el('p', { cls: 'lead', key: 'rummy.blocked' }));
    box.append(handRows(ctx, 'okey', h.racks, { isJoker }));
    const table = el('table', { cls: 'scores' });
    table.append(el('tr', {}, el('th', { key: 'over.player' }), el('th', { key: 'rummy.col_table' }), el('th', { key: 'rummy.col_rack' }), el('th', { key: 'rummy.col_round' }), el('th', { key: 'rummy.col_wins' })));
    for (let s = 0; s < ctx.seats; s++) {
      const n = ctx.nameOf(s);
      const won = h.round_winners.includes(s);
      table.append(el('tr', { cls: won ? 'current' : '' }, el('th', { key: n.key, vars: n.vars }), el('td', { raw: fmt(h.table_points[s]) }), el('td', { raw: fmt(h.rack_points[s]) }), el('td', { raw: fmt(h.scores[s]) }), el('td', { raw: h.round_wins[s] })));
    }
    box.append(table);
    const names = h.round_winners.map((s) => t(ctx.nameOf(s).key, ctx.nameOf(s).vars)).join(', ');
    box.append(el('p', { key: 'rummy.round_won', vars: { names } }));
    return box;
  }

  function scores(o) {
    const rows = handHistory(ctx, 'rummy-history', o.last_round?.round, o.last_round?.scores);
    return { rows, current: o.over ? null : o.table_points, totals: o.totals };
  }

  return { family: 'okey', reset, render, handOver, scores };
}
