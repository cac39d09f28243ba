// Ladder Okey (okey-ladder.md, seed 004): the rack, the centre and indicator, the combinations
// each player has opened in front of them, the current need in the corner, and the moves of
// 101 Okey: lay down (from a selection, or each group of adjacent tiles on the rack), lay off,
// exchange a joker, push a pair onto a pairs opener, recall, return the taken tile, discard.
import { pieceNames, speaker } from '../ui/names.js';
import { el, t, fmt } from '../i18n.js';
import { Rack } from '../ui/rack.js';
import { faceOf, pieceEl } from '../ui/tiles.js';
import { button, dialog, closeDialog } from '../ui/parts.js';
import { skeleton, opponents, myPanel, keepInPlace } from '../ui/layout.js';
import { discardCorner, sortButtons, settlementList, wallStack, setStatus, meldCenter, meldEl, sameTiles, jokerBox } from '../ui/okeyparts.js';

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let rack = null;
  let obs = null;
  let prevHand = [];
  const bottom = { bl: el('div', { cls: 'corner' }), wrap: el('div', { cls: 'rack-wrap' }), br: el('div', { cls: 'corner' }) };
  const actionBar = el('div', { cls: 'action-bar' });
  const isJoker = (tok) => Boolean(obs) && faceOf(tok) === obs.okey;

  function reset() {
    rack = null;
    prevHand = [];
  }

  function ensureRack() {
    if (rack) return rack;
    rack = new Rack({
      family: 'okey', rows: 2, cols: 15, storeKey: `meldhall.rack.${ctx.matchId}`, isJoker,
      onSelect: () => actions(),
      onDrop: (tok, zone, ev) => drop(tok, zone, ev),
      onKey: (what, tok) => {
        if (what === 'discard') discard(tok);
        if (what === 'face-down') ctx.toast(t('okey.face_down'));
      },
    });
    return rack;
  }

  function render(m) {
    obs = m.observation;
    const hand = obs.hand || [];
    ensureRack().update(hand, prevHand.length ? hand.filter((x) => !prevHand.includes(x)) : []);
    prevHand = hand;
    opponents(ctx, areas, obs, {
      family: 'okey', counts: obs.hidden_counts, scores: obs.match_scores, turn: obs.to_act,
      extra: (s) => (obs.opened[s] !== 'none' ? [el('span', { cls: 'chip', key: `ladder.opened_${obs.opened[s]}` })] : []),
    });
    const middle = el('div', { cls: 'center', attrs: { style: 'flex-direction:row;gap:14px' } },
      wallStack(obs.centre, ctx.legal((a) => a.type === 'draw').length > 0, () => ctx.send({ type: 'draw' })),
      el('div', { cls: 'stack' }, pieceEl('okey', obs.indicator), el('span', { cls: 'label', key: 'okey.indicator' })),
      jokerBox(obs.okey),
      el('div', { cls: 'info-box need', attrs: { id: 'need' } },
        el('span', { key: 'ladder.need', vars: { n: obs.need } }),
        el('span', { key: 'ladder.pairs_need', vars: { n: obs.pairs_need } }),
        el('span', { key: 'ladder.base', vars: { n: obs.base } }),
        el('span', { key: 'ladder.round', vars: { n: obs.hand_number, of: obs.rounds } }),
        ...laidLine()));
    areas.center.replaceChildren(meldCenter(ctx, middle, (s) => combos(s)));
    corners();
    const me = obs.opened[ctx.seat] !== 'none' ? [el('span', { cls: 'chip', key: `ladder.opened_${obs.opened[ctx.seat]}` })] : [];
    keepInPlace(bottom.wrap, [myPanel(ctx, { count: hand.length, score: obs.match_scores[ctx.seat], turn: obs.to_act.includes(ctx.seat), extra: me }), rack.el, actionBar]);
    if (!bottom.row) {
      bottom.row = el('div', { cls: 'bottom-row' }, bottom.bl, bottom.wrap, bottom.br);
      areas.bottom.replaceChildren(bottom.row);
    }
    let key = 'status.wait';
    if (obs.over) key = 'status.over';
    else if (obs.to_act.includes(ctx.seat)) key = `ladder.status_${obs.phase}`;
    const n = ctx.nameOf(obs.to_move ?? 0);
    setStatus(ctx, key, { name: t(n.key, n.vars) });
    actions();
  }

  /** Return the live total of the turn's laid combinations against their need, as the
   * engine counts it (the observation's `laid`), or nothing. */
  function laidLine() {
    if (!obs.laid) return [];
    const short = obs.laid.value < obs.laid.need;
    return [el('b', { cls: short ? 'laid short' : 'laid', key: 'ladder.laid_live', vars: { value: fmt(obs.laid.value), need: fmt(obs.laid.need) }, attrs: { id: 'laid-total' } })];
  }

  function combos(seat) {
    return obs.table.filter((c) => c.owner === seat).map((c) => meldEl('okey', c, c.tiles, {
      id: c.id, owner: c.owner, isJoker, value: c.value, provisional: c.provisional,
      onClick: (combo, e) => clickCombo(combo, e),
    }));
  }

  function corners() {
    const take = ctx.legal((a) => a.type === 'take').length > 0;
    const spots = { bottom: bottom.br, right: areas.tr, top: areas.tl, left: bottom.bl };
    for (let s = 0; s < ctx.seats; s++) {
      spots[ctx.place(s)].replaceChildren(discardCorner(ctx, s, obs.discards[s], {
        family: 'okey', mine: s === ctx.seat, clickable: (s + 1) % ctx.seats === ctx.seat && take,
        onTake: () => ctx.send({ type: 'take' }), onDiscard: (zone) => rack.dropSelected(zone), isJoker,
      }));
    }
  }

  function actions() {
    if (!obs || !rack) return;
    const sel = rack.selected();
    const buttons = [];
    const add = (key, fn, id, cls = 'act') => buttons.push(button(key, fn, { cls, attrs: { id } }));
    if (sel.length === 1 && ctx.legal((a) => a.type === 'discard' && a.tile === sel[0]).length) add('act.discard', () => discard(sel[0]), 'act-discard');
    if (sel.length >= ctx.minMeld && canLay()) add('ladder.lay', () => layDown(sel), 'act-meld');
    if (ctx.legal((a) => a.type === 'recall').length) add('ladder.recall', () => ctx.send({ type: 'recall' }), 'act-recall', '');
    if (ctx.legal((a) => a.type === 'return').length) add('ladder.return', () => ctx.send({ type: 'return' }), 'act-return', '');
    if (sel.length === 2 && ctx.legal((a) => a.type === 'give' && sameTiles(a.tiles, sel)).length) {
      for (const a of ctx.legal((x) => x.type === 'give' && sameTiles(x.tiles, sel))) {
        const n = ctx.nameOf(a.json.to);
        buttons.push(button('ladder.give', () => ctx.send(a.json), { cls: 'act', vars: { name: t(n.key, n.vars) }, attrs: { 'data-give': a.json.to } }));
      }
    }
    if (!buttons.length && obs.to_act.includes(ctx.seat) && obs.phase === 'act') {
      buttons.push(el('span', { cls: 'prompt', key: sel.length === 1 ? 'ladder.hint_one' : 'ladder.hint_act' }));
    }
    actionBar.replaceChildren(sortButtons(rack), ...buttons);
  }

  function canLay() {
    return obs.to_act.includes(ctx.seat) && obs.phase === 'act';
  }

  /** Lay the selection: each group of adjacent selected tiles on the rack is one combination. */
  async function layDown(sel) {
    const groups = rack.groups().map((g) => g.filter((x) => sel.includes(x))).filter((g) => g.length);
    const melds = groups.length > 1 && groups.every((g) => g.length >= ctx.minMeld) ? groups : [rack.selected()];
    rack.selection.clear();
    for (const tiles of melds) {
      // the server lists every pair, set and run the rack may lay now: no other is sent
      const listed = ctx.legal((a) => a.type === 'meld' && sameTiles(a.tiles, tiles));
      if (!listed.length) {
        ctx.toast(t('ladder.no_meld', { tiles: pieceNames('okey', tiles, isJoker) }), 'bad');
        break;
      }
      if (!(await ctx.send(listed[0].json))) break;
    }
  }

  async function clickCombo(combo, e) {
    const sel = rack.selected();
    if (!sel.length) return;
    if (sel.length === 1 && await layOff(sel[0], combo, e)) return;
    const swaps = ctx.legal((a) => a.type === 'replace' && a.combo === combo.id && sameTiles(a.tiles, sel));
    if (swaps.length) {
      rack.selection.clear();
      await ctx.send(swaps[0].json);
      return;
    }
    const joker = combo.tiles.find(isJoker);
    if (joker) {
      rack.selection.clear();
      await ctx.send({ type: 'replace', combo: combo.id, joker, tiles: sel });
    } else if (sel.length === 2) {
      await ctx.send({ type: 'give', to: combo.owner, tiles: sel });
    }
  }

  async function layOff(tok, combo, e) {
    const options = ctx.legal((a) => a.type === 'layoff' && a.tile === tok && a.combo === combo.id);
    let end = null;
    if (options.length === 1) end = options[0].json.end;
    else if (options.length > 1) {
      const box = e?.currentTarget?.getBoundingClientRect?.() || e?.target?.closest?.('.meld')?.getBoundingClientRect?.();
      const left = box && e.clientX < box.left + box.width / 2;
      end = (options.find((a) => a.json.end === (left ? 'low' : 'high')) || options[0]).json.end;
    } else if (combo.kind === 'set') end = 'set';
    else {
      const box = e?.target?.closest?.('.meld')?.getBoundingClientRect?.();
      end = box && e.clientX < box.left + box.width / 2 ? 'low' : 'high';
    }
    if (!end) return false;
    rack.selection.clear();
    await ctx.send({ type: 'layoff', tile: tok, combo: combo.id, end });
    return true;
  }

  async function discard(tok) {
    if (!ctx.legal((a) => a.type === 'discard' && a.tile === tok).length) return ctx.toast(t('ui.not_now'), 'bad');
    const risky = obs.fitting?.includes(faceOf(tok)) || isJoker(tok);
    const last = obs.hand.length === 1;
    const go = async () => {
      closeDialog('confirm');
      rack.selection.clear();
      await ctx.send({ type: 'discard', tile: tok });
    };
    if (risky && !last && ctx.settings.confirm) {
      dialog({ titleKey: 'ladder.confirm_title', body: el('p', { key: isJoker(tok) ? 'ladder.confirm_joker' : 'ladder.confirm_fits', vars: { n: isJoker(tok) ? obs.base : 100 } }),
        buttons: [button('act.discard', go, { cls: 'primary', attrs: { id: 'confirm-discard' } })], id: 'confirm' });
      return;
    }
    await go();
  }

  async function drop(tok, zone, ev) {
    if (zone.dataset.drop === 'discard') return discard(tok);
    if (zone.dataset.drop === 'meld') {
      const combo = obs.table.find((c) => String(c.id) === zone.dataset.meld);
      if (!combo) return;
      if (!rack.selection.has(tok)) {
        rack.selection.clear();
        rack.selection.add(tok);
      }
      await clickCombo(combo, { clientX: ev.clientX, target: zone, currentTarget: zone });
    }
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify(h.totals);
    if (h.winner !== null && h.winner !== undefined) {
      box.append(el('p', { cls: 'lead', key: 'ladder.won', vars: speaker(ctx, h.winner) }));
      if (h.final_discard) box.append(el('div', { cls: 'who' }, el('span', { key: 'hand.final_discard' }), el('div', { cls: 'piece-row' }, pieceEl('okey', h.final_discard, { small: true }))));
      if (h.joker_finish) box.append(el('p', { key: 'ladder.joker_finish' }));
      if (h.from_hand) box.append(el('p', { key: 'ladder.from_hand' }));
    } else {
      box.append(el('p', { cls: 'lead', key: 'ladder.no_winner' }));
    }
    const table = el('table', { cls: 'scores' });
    table.append(el('tr', {}, el('th', { key: 'over.player' }), el('th', { key: 'ladder.col_opened' }), el('th', { key: 'ladder.col_left' }), el('th', { key: 'ladder.col_penalties' }), el('th', { key: 'ladder.col_settlement' }), el('th', { key: 'ladder.col_round' }), el('th', { key: 'scores.total' })));
    for (let s = 0; s < ctx.seats; s++) {
      const n = ctx.nameOf(s);
      table.append(el('tr', {}, el('th', { key: n.key, vars: n.vars }), el('td', { key: `ladder.opened_${h.opened[s]}` }), el('td', { raw: h.tiles_left[s] }),
        el('td', { raw: fmt(h.penalties[s]) }), el('td', { raw: fmt(h.settlement[s]) }), el('td', { raw: fmt(h.round[s]) }), el('td', { raw: fmt(h.totals[s]) })));
    }
    box.append(el('p', { key: 'ladder.base_line', vars: { n: h.base } }), settlementList(ctx, h.lines), table);
    return box;
  }

  function scores(o) {
    return { rows: o.scores.history, current: o.over ? null : o.scores.round, totals: o.match_scores };
  }

  return { family: 'okey', reset, render, handOver, scores };
}
