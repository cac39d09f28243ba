// Okey Cards (okey-cards.md): the deck, a hand of five slots, the field of three, the score
// with its reward tiers and the combinations scored. One player, no turns.
import { el, t, fmt } from '../i18n.js';
import { pieceName } from '../ui/names.js';
import { pieceEl } from '../ui/tiles.js';
import { button, dialog, closeDialog, control } from '../ui/parts.js';
import { skeleton } from '../ui/layout.js';
import { wallStack, setStatus } from '../ui/okeyparts.js';

export function createView(ctx) {
  const areas = skeleton(ctx.board);
  let obs = null;
  let picked = null;
  ctx.board.classList.add('solo-board');

  function reset() {
    picked = null;
  }

  function render(m) {
    obs = m.observation;
    if (picked && !(obs.hand || []).includes(picked)) picked = null;
    const canDraw = ctx.legal((a) => a.type === 'draw').length > 0;
    const deck = wallStack(obs.deck_count, canDraw, () => ctx.send({ type: 'draw' }), 'okeycard', 'cards.deck');
    const field = el('div', { cls: 'card-slots field', attrs: { id: 'field', 'data-drop': 'field' } });
    for (const tok of obs.field) {
      const slot = el('div', { cls: 'card-slot' });
      if (tok) {
        const p = pieceEl('okeycard', tok);
        control(p, t('a11y.unselect', { tile: pieceName('okeycard', tok) }));
        p.addEventListener('click', () => ctx.send({ type: 'unselect', card: tok }));
        slot.append(p);
      }
      field.append(slot);
    }
    const discards = el('div', { cls: 'stack drop-zone discard-pile', attrs: { id: 'discard-zone', 'data-drop': 'discard' } },
      el('div', { cls: 'pile' }, ...obs.discards.slice(-3).map((tok) => pieceEl('okeycard', tok))), el('span', { cls: 'label', key: 'cards.discards', vars: { n: obs.discards.length } }));
    control(discards, t('a11y.discard_here'));
    discards.addEventListener('click', () => picked && ctx.legal((x) => x.type === 'discard' && x.card === picked).length && discard(picked));
    const score = el('div', { cls: 'info-box score-box' }, el('div', { key: 'cards.score', vars: { n: obs.score } }), tiers());
    areas.top.replaceChildren(score);
    areas.center.replaceChildren(el('div', { cls: 'center' }, el('div', { attrs: { style: 'display:flex;gap:28px;align-items:center' } }, deck, el('div', { cls: 'stack' }, field, el('span', { cls: 'label', key: 'cards.field' })), discards)));
    areas.right.replaceChildren(played());
    const hand = el('div', { cls: 'card-slots hand', attrs: { id: 'hand' } });
    for (const tok of obs.hand_slots || []) {
      const slot = el('div', { cls: 'card-slot' });
      if (tok) {
        const p = pieceEl('okeycard', tok, { cls: picked === tok ? 'selected' : '' });
        control(p, pieceName('okeycard', tok));
        p.setAttribute('aria-pressed', String(picked === tok));
        p.addEventListener('click', () => {
          picked = picked === tok ? null : tok;
          render(ctx.state);
        });
        wireDrag(p, tok);
        slot.append(p);
      }
      hand.append(slot);
    }
    const bar = el('div', { cls: 'action-bar' });
    if (picked) {
      if (ctx.legal((a) => a.type === 'select' && a.card === picked).length) bar.append(button('cards.to_field', () => act({ type: 'select', card: picked }), { cls: 'act', attrs: { id: 'act-field' } }));
      if (ctx.legal((a) => a.type === 'discard' && a.card === picked).length) bar.append(button('act.discard', () => discard(picked), { cls: 'act', attrs: { id: 'act-discard' } }));
    } else if (canDraw) bar.append(el('span', { cls: 'prompt', key: 'cards.hint_draw' }));
    else if (!obs.over) bar.append(el('span', { cls: 'prompt', key: 'cards.hint_pick' }));
    if (ctx.legal((a) => a.type === 'quit').length) bar.append(button('cards.quit', quit, { attrs: { id: 'act-quit' } }));
    areas.bottom.replaceChildren(el('div', { cls: 'rack-wrap' }, hand, bar));
    setStatus(ctx, obs.over ? 'status.over' : canDraw ? 'cards.status_draw' : 'cards.status_play');
  }

  function tiers() {
    const [silver, gold] = obs.reward_thresholds;
    const max = gold * 1.15;
    const bar = el('div', { cls: 'tier-bar' }, el('div', { cls: 'fill', attrs: { style: `width:${Math.min(100, (obs.score / max) * 100)}%` } }));
    for (const [v, name] of [[silver, 'silver'], [gold, 'gold']]) bar.append(el('span', { cls: `tick ${name}`, attrs: { style: `left:${(v / max) * 100}%` } }));
    return el('div', {}, bar, el('div', { key: `cards.reward_${obs.reward}`, vars: { silver, gold } }));
  }

  function played() {
    const list = el('div', { cls: 'played' }, el('div', { key: 'cards.played' }));
    for (const p of obs.played) {
      list.append(el('div', { cls: 'played-row' }, ...p.cards.map((tok) => pieceEl('okeycard', tok, { small: true })), el('span', { raw: `+${fmt(p.points)}` })));
    }
    return list;
  }

  async function act(action) {
    picked = null;
    await ctx.send(action);
  }

  function discard(tok) {
    const go = () => {
      closeDialog('confirm');
      act({ type: 'discard', card: tok });
    };
    if (!ctx.settings.confirm) return go();
    dialog({ titleKey: 'cards.confirm_title', body: el('p', { key: 'cards.confirm_discard' }), buttons: [button('act.discard', go, { cls: 'primary', attrs: { id: 'confirm-discard' } })], id: 'confirm' });
  }

  function quit() {
    dialog({ titleKey: 'cards.quit', body: el('p', { key: 'cards.confirm_quit', vars: { n: obs.score } }), buttons: [button('cards.quit', () => { closeDialog('confirm'); act({ type: 'quit' }); }, { cls: 'primary' })], id: 'confirm' });
  }

  function wireDrag(piece, tok) {
    piece.style.touchAction = 'none';
    piece.addEventListener('pointerdown', (e) => {
      const start = { x: e.clientX, y: e.clientY };
      piece.setPointerCapture(e.pointerId);
      const up = (ev) => {
        piece.removeEventListener('pointerup', up);
        if (Math.hypot(ev.clientX - start.x, ev.clientY - start.y) < 12) return;
        const zone = document.elementFromPoint(ev.clientX, ev.clientY)?.closest('[data-drop]');
        if (zone?.dataset.drop === 'field') act({ type: 'select', card: tok });
        if (zone?.dataset.drop === 'discard') discard(tok);
      };
      piece.addEventListener('pointerup', up);
    });
  }

  function handOver(h) {
    const box = el('div', { cls: 'hand-over' });
    box.dataset.result = JSON.stringify([h.score]);
    box.append(el('p', { cls: 'lead', key: `cards.end_${h.termination}`, vars: { n: h.score } }));
    const list = el('ol', { cls: 'settlement' });
    for (const line of h.lines) {
      list.append(el('li', {}, el('span', { cls: 'piece-row', attrs: { style: 'display:inline-flex' } }, ...line.cards.map((tok) => pieceEl('okeycard', tok, { small: true }))), ' ',
        el('span', { key: `cards.combo_${line.type}${line.same_colour ? '_colour' : ''}`, vars: { n: line.points } })));
    }
    box.append(list);
    if (h.hands?.[0]?.length) box.append(el('div', { cls: 'who' }, el('span', { key: 'cards.left' }), el('div', { cls: 'piece-row' }, ...h.hands[0].map((tok) => pieceEl('okeycard', tok, { small: true })))));
    box.append(el('p', { cls: 'lead', key: `cards.reward_${h.reward}`, vars: { silver: obs.reward_thresholds[0], gold: obs.reward_thresholds[1] } }));
    return box;
  }

  function scores(o) {
    return { rows: o.played.map((p) => [p.points]), current: null, totals: o.match_scores, rowKey: 'cards.combo_n' };
  }

  return { family: 'okeycard', reset, render, handOver, scores };
}
