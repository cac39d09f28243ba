// Tile Rummy 500 (tile-rummy.md, seed 001): the rack, each player's melds in front of them,
// the discard pile spread so every tile can be seen and taken from any depth, the stock.
import { speaker, pieceName } from '../ui/names.js';
import { el, t, fmt } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { pieceEl } from '../ui/tiles.js';
import { button, dialog, closeDialog, control } from '../ui/parts.js';
import { skeleton, opponents, myPanel, handHistory, keepInPlace } from '../ui/layout.js';
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
    opponents(ctx, areas, obs, { family: 'okey', counts: obs.hidden_counts, scores: obs.table_points, turn: obs.to_act,
      extra: (s) => [el('span', { key: 'rummy.wins', vars: { n: obs.round_wins[s] } })] });
    const middle = el('div', { cls: 'center' },
      el('div', { attrs: { style: 'display:flex;gap:12px;align-items:center' } },
        wallStack(obs.stock_count, ctx.legal((a) => a.type === 'draw').length > 0, () => ctx.send({ type: 'draw' })),
        el('div', { cls: 'info-box' }, el('span', { key: 'rummy.round', vars: { n: obs.hand_number } }))),
      pileRow());
    areas.center.replaceChildren(meldCenter(ctx, middle, (s) => obs.melds.filter((x) => x.owner === s).map((x) => {
      const node = meldEl('okey', x, x.tiles, { id: x.id, owner: x.owner, isJoker, value: x.value, onClick: (meld, e) => clickMeld(meld, e) });
      if (dissolve.has(x.id)) node.classList.add('provisional');
      return node;
    })));
    keepInPlace(wrap, [myPanel(ctx, { count: hand.length, score: obs.table_points[ctx.seat], turn: obs.to_act.includes(ctx.seat),
      extra: [el('span', { key: 'rummy.wins', vars: { n: obs.round_wins[ctx.seat] } })] }), rack.el, actionBar]);
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
        control(p, t('a11y.take_pile', { tile: pieceName('okey', tok, { joker: isJoker(tok) }) }));
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
    const ends = mine && ctx.legal((a) => a.type === 'end').length > 0;
    if (mine && obs.phase === 'play') {
      if (sel.length === 1 && ctx.legal((a) => a.type === 'discard' && a.tile === sel[0]).length) buttons.push(button('act.discard', () => discard(sel[0]), { cls: 'act', attrs: { id: 'act-discard' } }));
      if (sel.length >= ctx.minMeld) buttons.push(button('rummy.meld', () => meld(sel), { cls: 'act', attrs: { id: 'act-meld' } }));
      if (dissolve.size) buttons.push(button('rummy.rearrange', () => rearrange(sel), { cls: 'act', attrs: { id: 'act-rearrange' } }));
      if (!buttons.length && !ends) buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_play' }));
    }
    if (mine && obs.phase === 'draw') {
      if (pick !== null) {
        buttons.push(button('rummy.take', () => take(sel), { cls: 'act', attrs: { id: 'act-take' } }));
        buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_take' }));
      } else if (!ends) buttons.push(el('span', { cls: 'prompt', key: 'rummy.hint_draw' }));
    }
    // the stock is empty: ending the round is listed in the draw phase (T-D15)
    if (ends) buttons.push(button('rummy.end', () => ctx.send({ type: 'end' }), { cls: 'act', attrs: { id: 'act-end' } }));
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
    const action = listed.length ? listed[0].json : sel.length + 1 >= ctx.minMeld ? { type: 'take', index: pick, use: { type: 'meld', ...meldJson(withTile) } } : null;
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
   * a small rack; each group of adjacent tiles becomes one new meld. A tile dropped on (or
   * selected, then clicked onto) another player's meld is fed to it; a fed tile clicked goes
   * back. The engine's listed rearrangements are offered as one-click suggestions. */
  function rearrange(sel) {
    const tiles = [...obs.melds.filter((x) => dissolve.has(x.id)).flatMap((x) => x.tiles), ...sel];
    const fed = []; // {tile, meld, end} in the order placed (the engine checks them in order)
    const board = new Rack({ family: 'okey', rows: 2, cols: 14, storeKey: null,
      onDrop: (tok, zone, ev) => zone.dataset.drop === 'feed' && feed([tok], Number(zone.dataset.meld), sideOf(zone, ev.clientX)) });
    board.sort('runs', tiles);
    const others = obs.melds.filter((x) => x.owner !== ctx.seat);
    const targets = el('div', { cls: 'feed-targets' });
    const send = async (action) => {
      closeDialog('rearrange');
      dissolve.clear();
      rack.selection.clear();
      await ctx.send(action);
    };
    const go = () => send({ type: 'rearrange', dissolve: [...dissolve], melds: board.groups().map(meldJson),
      feeds: fed.map((f) => ({ tile: f.tile, meld: f.meld, end: f.end })) });

    function feed(toks, meldId, side) {
      const meld = others.find((x) => x.id === meldId);
      if (!meld || !toks.length) return;
      for (const tok of toks) fed.push({ tile: tok, meld: meldId, end: feedEnd(meld, tok, side) });
      board.update(board.tokens().filter((x) => !toks.includes(x)));
      drawTargets();
    }

    function unfeed(tok) {
      const i = fed.findIndex((f) => f.tile === tok);
      const back = fed.filter((f, j) => j >= i && f.meld === fed[i].meld); // later feeds there lean on it
      for (const f of back) fed.splice(fed.indexOf(f), 1);
      board.update([...board.tokens(), ...back.map((f) => f.tile)]);
      drawTargets();
    }

    function feedEnd(meld, tok, side) {
      if (meld.kind !== 'run') return null;
      const mine = fed.filter((f) => f.meld === meld.id);
      const low = meld.start - 1 - mine.filter((f) => f.end === 'low').length;
      const high = meld.start + meld.tiles.length + mine.filter((f) => f.end === 'high').length;
      if (isJoker(tok)) return side;
      const n = Number(/\d+/.exec(tok)[0]);
      const number = (p) => (p === 0 ? 13 : p === 14 ? 1 : p);
      const fitsLow = low >= 0 && number(low) === n;
      const fitsHigh = high <= 14 && number(high) === n;
      if (fitsLow !== fitsHigh) return fitsLow ? 'low' : 'high';
      return side;
    }

    function drawTargets() {
      targets.replaceChildren(...others.map((x) => {
        const mine = fed.filter((f) => f.meld === x.id);
        const low = mine.filter((f) => f.end === 'low').map((f) => f.tile).reverse();
        const high = mine.filter((f) => f.end !== 'low').map((f) => f.tile);
        const node = meldEl('okey', x, [...low, ...x.tiles, ...high], { id: x.id, owner: x.owner, isJoker,
          onClick: (meld, e) => feed(board.selected(), meld.id, sideOf(e.currentTarget, e.clientX)) });
        node.dataset.drop = 'feed';
        node.classList.add('target');
        for (const piece of node.querySelectorAll('.piece')) {
          if (!mine.some((f) => f.tile === piece.dataset.token)) continue;
          piece.classList.add('fed');
          piece.addEventListener('click', (e) => {
            e.stopPropagation();
            unfeed(piece.dataset.token);
          });
        }
        const n = ctx.nameOf(x.owner);
        return el('div', { cls: 'feed-target' }, el('span', { cls: 'label', key: n.key, vars: n.vars }), node);
      }));
    }

    function suggestion(entry, i) {
      const a = entry.json;
      const parts = a.melds.map((m) => el('span', { cls: 'meld' }, ...m.tiles.map((tok) => pieceEl('okey', tok, { small: true, joker: isJoker(tok) }))));
      for (const f of a.feeds) parts.push(el('span', { cls: 'meld fed' }, pieceEl('okey', f.tile, { small: true, joker: isJoker(f.tile) })));
      const b = el('button', { cls: 'suggest', attrs: { type: 'button', 'data-suggest': i, title: entry.text } }, ...parts);
      b.addEventListener('click', () => send(a));
      return b;
    }

    const listed = ctx.legal((a) => a.type === 'rearrange');
    const body = [el('p', { key: 'rummy.rearrange_hint' }), board.el, el('div', { cls: 'action-bar' }, sortButtons(board, ['runs', 'groups']))];
    if (others.length) {
      drawTargets();
      body.push(el('p', { key: 'rummy.feed_hint' }), targets);
    }
    if (listed.length) body.push(el('p', { key: 'rummy.suggestions' }), el('div', { cls: 'suggestions' }, ...listed.map(suggestion)));
    dialog({ titleKey: 'rummy.rearrange', body,
      buttons: [button('rummy.rearrange_go', go, { cls: 'primary', attrs: { id: 'rearrange-go' } })], id: 'rearrange', cls: 'wide rearrange' });
  }

  /** Return the end of a run a tile is meant for: the half of the meld the pointer is on. */
  function sideOf(node, x) {
    const box = node.getBoundingClientRect();
    return x < box.left + box.width / 2 ? 'low' : 'high';
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
      box.append(el('p', { cls: 'lead', key: 'rummy.went_out', vars: speaker(ctx, h.went_out) }));
    } else box.append(el('p', { cls: 'lead', key: 'rummy.blocked' }));
    box.append(handRows(ctx, 'okey', h.racks, { isJoker }));
    const table = el('table', { cls: 'scores' });
    table.append(el('tr', {}, el('th', { key: 'over.player' }), el('th', { key: 'rummy.col_table' }), el('th', { key: 'rummy.col_rack' }), el('th', { key: 'rummy.col_round' }), el('th', { key: 'rummy.col_wins' })));
    for (let s = 0; s < ctx.seats; s++) {
      const n = ctx.nameOf(s);
      const won = h.round_winners.includes(s);
      table.append(el('tr', { cls: won ? 'current' : '' }, el('th', { key: n.key, vars: n.vars }), el('td', { raw: fmt(h.table_points[s]) }), el('td', { raw: fmt(h.rack_points[s]) }), el('td', { raw: fmt(h.scores[s]) }), el('td', { raw: h.round_wins[s] })));
    }
    box.append(table, partsList(h));
    const names = h.round_winners.map((s) => t(ctx.nameOf(s).key, ctx.nameOf(s).vars)).join(', ');
    box.append(el('p', { key: 'rummy.round_won', vars: { names } }));
    return box;
  }

  /** Return each seat's round score in the engine's parts: table points, the racks
   * collected by the player who went out, the own rack lost. */
  function partsList(h) {
    const list = el('ol', { cls: 'settlement', attrs: { id: 'round-parts' } });
    (h.parts || []).forEach((p, s) => {
      const n = ctx.nameOf(s);
      const words = [t('rummy.part_table', { n: fmt(p.table) })];
      if (p.collected) words.push(t('rummy.part_collected', { n: fmt(p.collected) }));
      if (p.own_rack) words.push(t('rummy.part_own_rack', { n: fmt(-p.own_rack) }));
      list.append(el('li', { key: 'rummy.parts_line', vars: { name: t(n.key, n.vars), parts: words.join(' '), total: fmt(h.scores[s]) } }));
    });
    return list;
  }

  function scores(o) {
    const rows = handHistory(ctx, 'rummy-history', o.last_round?.round, o.last_round?.scores);
    return { rows, current: o.over ? null : o.table_points, totals: o.totals };
  }

  return { family: 'okey', reset, render, handOver, scores };
}
