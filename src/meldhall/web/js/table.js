// The table page: connects, starts or resumes the solo match, hands every state to the
// game's renderer (games/<id>.js) and shows what every game shares: the toolbar, the
// end-of-hand screen, the match result with the revealed seed, and the fairness proof.
import { boot, setToken, gameKey } from './page.js';
import { t, el, fmt } from './i18n.js';
import { Net } from './net.js';
import { applyDisplay } from './settings.js';
import { button, dialog, closeDialog, toast, scoreTable } from './ui/parts.js';
import { pieceEl } from './ui/tiles.js';
import { reasonOf } from './ui/okeyparts.js';

const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const settings = await boot('games');
const felt = document.getElementById('felt');
applyDisplay(felt, settings);
const { createView } = await import(`./games/${gameId}.js`);

const ctx = {
  gameId,
  settings,
  board: document.getElementById('board'),
  status: document.getElementById('status'),
  matchId: null,
  seat: 0,
  seats: 0,
  players: [],
  state: null,
  /** Send an action; resolve true once the server applied it, false when it refused. */
  send(action) {
    if (!ctx.state) return Promise.resolve(false);
    const sid = ctx.state.state_id;
    return new Promise((resolve) => {
      pending.push({ resolve, sid });
      net.send({ type: 'act', state_id: sid, action });
    });
  },
  /** Return the legal action entries (json, text) that match a predicate on the JSON. */
  legal(pred = () => true) {
    return (ctx.state?.legal || []).filter((a) => pred(a.json));
  },
  nameOf(seat) {
    if (seat === ctx.seat) return { key: 'seat.you', vars: {} };
    const bots = ctx.players.map((p, i) => (p.kind === 'bot' ? i : -1)).filter((i) => i >= 0);
    return { key: 'seat.bot', vars: { n: bots.indexOf(seat) + 1 } };
  },
  /** Return the place of a seat around the table as seen from the player's own seat. */
  place(seat) {
    const rel = (seat - ctx.seat + ctx.seats) % ctx.seats;
    const places = { 1: ['bottom'], 2: ['bottom', 'top'], 3: ['bottom', 'right', 'left'], 4: ['bottom', 'right', 'top', 'left'] };
    return (places[ctx.seats] || places[4])[rel];
  },
  toast,
};
const view = createView(ctx);
let pending = [];
let welcome = null;
let shownHand = null;
let over = null;
let starting = false;
let wantNew = false;

const net = new Net(onMessage, (s) => document.body.classList.toggle('offline', s === 'closed'));
toolbar();

function onMessage(m) {
  if (m.type === 'welcome') onWelcome(m);
  else if (m.type === 'match') onMatch(m);
  else if (m.type === 'state') onState(m);
  else if (m.type === 'rejected') onRejected(m);
  else if (m.type === 'match_over') onOver(m);
}

function onWelcome(m) {
  welcome = m;
  setToken(m.token);
  const playing = m.playing[gameId];
  if (wantNew) {
    wantNew = false;
    startDialog();
  } else if (ctx.matchId && ctx.matchId === playing) {
    net.send({ type: 'resume', match: ctx.matchId, state_id: ctx.state?.state_id ?? 0 });
  } else if (ctx.matchId && over) {
    /* the finished match stays on screen */
  } else if (playing) {
    net.send({ type: 'resume', match: playing });
  } else {
    startDialog();
  }
}

function startDialog() {
  const seed = el('input', { attrs: { id: 'contribution', type: 'text', maxlength: '200', value: randomText(), 'aria-label': t('start.seed') } });
  const body = [
    el('p', { cls: 'intro', key: `intro.${gameId}` }),
    el('p', { cls: 'mode', key: ctx.seatsText || 'start.solo' }),
    el('div', { cls: 'fair' }, el('span', { key: 'fair.commitment' }), el('code', { raw: welcome.next_commitment, cls: 'hash' })),
    el('label', { cls: 'seed' }, el('span', { key: 'start.seed' }), seed),
    el('p', { cls: 'hint', key: 'fair.explain' }),
  ];
  const start = button('start.play', () => {
    if (starting) return;
    starting = true;
    over = null;
    closeDialog();
    net.send({ type: 'start', game: gameId, contribution: seed.value });
  }, { cls: 'primary', attrs: { id: 'start-match' } });
  dialog({ titleKey: gameKey(gameId), body, buttons: [start], closable: false, id: 'start' });
}

function randomText() {
  const a = new Uint8Array(6);
  crypto.getRandomValues(a);
  return [...a].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function onMatch(m) {
  starting = false;
  ctx.matchId = m.match;
  ctx.seat = m.seat;
  ctx.seats = m.seats;
  ctx.players = m.players;
  ctx.commitment = m.commitment;
  ctx.contributions = m.contributions;
  over = null;
  shownHand = null;
  document.body.dataset.match = m.match;
  view.reset?.();
}

function onState(m) {
  ctx.state = m;
  const done = pending.filter((p) => m.state_id > p.sid);
  pending = pending.filter((p) => m.state_id <= p.sid);
  view.render(m);
  moveLog(m.events);
  document.body.classList.toggle('my-turn', m.legal.length > 0);
  document.body.dataset.stateId = m.state_id;
  for (const p of done) p.resolve(true);
  if (m.paused && m.last_hand) showHandOver(m);
  else if (!m.paused && shownHand !== null && !over) {
    closeDialog('hand-over');
    shownHand = null;
  }
}

/** Show the latest moves of the table in words (with the tile where the event names one),
 * so that a person can follow the computer players. */
function moveLog(events) {
  const box = document.getElementById('move-log');
  for (const e of events) {
    const key = `ev.${e.kind}`;
    if (t(key) === key || e.seat === undefined || e.seat === null) continue;
    if (e.seat === ctx.seat && e.kind !== 'penalty' && e.kind !== 'wrong_discard_returned') continue;
    const n = ctx.nameOf(e.seat);
    const line = el('div', { cls: 'move' }, el('span', { key, vars: { name: t(n.key, n.vars), amount: e.amount ?? '', reason: reasonOf(e.reason ?? '') } }));
    const token = typeof e.tile === 'string' ? e.tile : typeof e.card === 'string' ? e.card : null;
    if (token && view.family) line.append(pieceEl(view.family, token, { small: true }));
    box.append(line);
    while (box.children.length > 3) box.firstChild.remove();
  }
}

function onRejected(m) {
  const key = m.engine_code ? `code.${m.engine_code}` : `reject.${m.code}`;
  toast(t(key) === key ? t(`reject.${m.code}`) : t(key), 'bad');
  const p = pending.shift();
  if (p) p.resolve(false);
  if (m.code === 'stale_state') net.send({ type: 'sync' });
}

function handTag(lastHand) {
  return JSON.stringify(lastHand);
}

function showHandOver(m) {
  const tag = handTag(m.last_hand);
  if (shownHand === tag || over) return;
  shownHand = tag;
  const next = button('hand.next', () => {
    closeDialog('hand-over');
    net.send({ type: 'continue' });
  }, { cls: 'primary', attrs: { id: 'next-hand' } });
  dialog({ titleKey: 'hand.over', body: view.handOver(m.last_hand, m.observation), buttons: [next], closable: false, id: 'hand-over', cls: 'wide' });
}

function onOver(m) {
  over = m;
  closeDialog();
  const outcome = m.outcome;
  const table = el('table', { cls: 'final' });
  table.append(el('tr', {}, el('th', { key: 'over.place' }), el('th', { key: 'over.player' }), el('th', { key: 'over.score' })));
  const order = outcome.scores.map((s, i) => i).sort((a, b) => outcome.ranks[a] - outcome.ranks[b]);
  for (const s of order) {
    const n = ctx.nameOf(s);
    table.append(el('tr', { cls: s === ctx.seat ? 'me' : '' }, el('td', { raw: outcome.ranks[s] }), el('td', { key: n.key, vars: n.vars }), el('td', { raw: fmt(outcome.scores[s]) })));
  }
  const body = [];
  const last = ctx.state?.last_hand;
  if (last) body.push(el('details', { cls: 'last-hand', attrs: { open: '' } }, el('summary', { key: 'over.last_hand' }), view.handOver(last, ctx.state.observation)));
  body.push(table, fairness(m), publishForm(m));
  const again = button('over.again', newMatch, { cls: 'primary', attrs: { id: 'play-again' } });
  dialog({ titleKey: 'over.title', body, buttons: [again], id: 'match-over', cls: 'wide' });
}

function newMatch() {
  closeDialog();
  ctx.matchId = null;
  over = null;
  wantNew = true;
  net.send({ type: 'hello', token: localStorage.getItem('meldhall.token') });
}

function fairness(m) {
  const box = el('div', { cls: 'fair' });
  box.append(el('div', {}, el('span', { key: 'fair.commitment' }), el('code', { cls: 'hash', raw: ctx.commitment })));
  box.append(el('div', {}, el('span', { key: 'fair.seed_text' }), el('code', { raw: (ctx.contributions || []).join(' · ') })));
  if (m) {
    box.append(el('div', {}, el('span', { key: 'fair.secret' }), el('code', { cls: 'hash', raw: m.secret, attrs: { id: 'revealed-secret' } })));
    box.append(el('a', { key: 'fair.verify', attrs: { href: `/verify/${ctx.matchId}`, target: '_blank', id: 'verify-link' } }));
  } else {
    box.append(el('p', { cls: 'hint', key: 'fair.explain' }));
  }
  return box;
}

function publishForm(m) {
  const input = el('input', { attrs: { type: 'text', maxlength: '32', id: 'publish-name', 'aria-label': t('records.name') } });
  input.placeholder = t('records.name');
  const form = el('form', { cls: 'publish' }, el('p', { key: 'records.publish_question' }), input);
  const go = el('button', { key: 'records.publish', attrs: { type: 'submit' } });
  form.append(go);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const r = await fetch('/api/publish', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: localStorage.getItem('meldhall.token'), match: m.match, name: input.value }),
    });
    toast(t(r.ok ? 'records.published' : 'records.publish_failed'), r.ok ? '' : 'bad');
    if (r.ok) form.replaceChildren(el('p', { key: 'records.published' }));
  });
  return form;
}

function toolbar() {
  const bar = document.getElementById('toolbar');
  const scores = button('ui.scores', () => {
    if (!ctx.state) return;
    const s = view.scores(ctx.state.observation);
    dialog({ titleKey: 'ui.scores', body: s.dom || scoreTable({ seats: ctx.seats, nameOf: ctx.nameOf, ...s }), id: 'scores' });
  }, { attrs: { id: 'scores-button' } });
  const rules = el('a', { key: 'ui.rules', cls: 'button', attrs: { href: `/rules/${gameId}`, target: '_blank' } });
  const fair = button('ui.fairness', () => dialog({ titleKey: 'ui.fairness', body: fairness(over), id: 'fairness' }));
  const fresh = button('ui.new_match', () => {
    const yes = button('ui.new_match', newMatch, { cls: 'primary' });
    dialog({ titleKey: 'ui.new_match', body: el('p', { key: 'start.abandon' }), buttons: [yes] });
  });
  bar.append(el('h1', { key: gameKey(gameId) }), document.getElementById('status'), el('div', { cls: 'move-log', attrs: { id: 'move-log', 'aria-live': 'polite' } }), el('div', { cls: 'tools' }, scores, rules, fair, fresh));
}
