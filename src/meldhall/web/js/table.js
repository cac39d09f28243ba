// The solo table page: connects, starts or resumes the solo match, and shows it with the
// shared table (board.js); adds the seed dialog, the match result with the revealed seed,
// publishing a result and starting a new match.
//
// The seed dialog comes first: it needs the words, the games' list and the server's welcome,
// not the table. The table's code (board.js and the game's view) and its stylesheet
// (board.css) are fetched only after the welcome, once the dialog is on screen (the server
// lists them in the page's `later` template: `fetchLater`), so that nothing shares the line
// with what the dialog needs; the table's messages wait for it in `waiting`.
import { boot, setToken, gameKey, gameList } from './page.js';
import { t, el } from './i18n.js';
import { Net } from './net.js';
import { button, dialog, closeDialog, toast } from './ui/dialogs.js';

const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
// The connection and the words load side by side: the server's welcome waits in `early`
// until the words are there.
const early = [];
let take = (m) => early.push(m);
const net = new Net((m) => take(m), (s) => document.body.classList.toggle('offline', s === 'closed'));
const [settings, games] = await Promise.all([boot('games'), gameList().catch(() => [])]);
const declared = games.find((g) => g.id === gameId) || {};
const LEVEL_KEY = 'meldhall.level';
/** The table once built (null before): `ctx` is its context. */
let table = null;
let ctx = null;
const waiting = [];
let welcome = null;
let welcomed = () => {};
let starting = false;
let wantNew = false;

take = onMessage;
for (const m of early.splice(0)) onMessage(m);
// The table is built once the welcome has said what comes first (the dialog is then on
// screen, or the match to resume is asked for), or after 2 s without one.
if (!welcome) await new Promise((resolve) => { welcomed = resolve; setTimeout(resolve, 2000); });
await afterPaint();
const [{ openTable }] = await Promise.all([import('./board.js'), fetchLater()]);
table = await openTable({ gameId, settings, send: (m) => net.send(m) });
ctx = table.ctx;
toolbar();
for (const m of waiting.splice(0)) onMessage(m);

/** Return a promise kept once the browser has drawn what is on the page now (or after
 * 200 ms: a hidden tab draws nothing). */
function afterPaint() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}

/** Put the files the page needs only for the table in its head (the server lists them in
 * the page's `later` template: the table's modules and board.css), all fetched at once now
 * that the first screen is drawn; return a promise kept once the stylesheets have loaded (or
 * failed), so that the table is never drawn without its look. */
function fetchLater() {
  const later = document.getElementById('later');
  if (!later) return Promise.resolve();
  const files = later.content.cloneNode(true);
  const sheets = [...files.querySelectorAll('link[rel=stylesheet]')].map((link) => new Promise((resolve) => {
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
  }));
  later.remove();
  document.head.append(files);
  return Promise.all(sheets);
}

function onMessage(m) {
  if (m.type === 'welcome') onWelcome(m);
  else if (!table) waiting.push(m);
  else if (m.type === 'match') {
    starting = false;
    table.match(m);
  } else if (m.type === 'state') table.state(m);
  else if (m.type === 'rejected') table.rejected(m);
  else if (m.type === 'appraisal') table.appraisal(m);
  else if (m.type === 'match_over') onOver(m);
}

function onWelcome(m) {
  welcome = m;
  welcomed();
  setToken(m.token);
  const playing = m.playing[gameId];
  if (wantNew) {
    wantNew = false;
    startDialog();
  } else if (ctx?.matchId && ctx.matchId === playing) {
    net.send({ type: 'resume', match: ctx.matchId, state_id: ctx.state?.state_id ?? 0 });
  } else if (ctx?.matchId && table.over) {
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
    el('p', { cls: 'mode', key: 'start.solo' }),
    el('div', { cls: 'fair' }, el('span', { key: 'fair.commitment' }), el('code', { raw: welcome.next_commitment, cls: 'hash' })),
    el('label', { cls: 'seed' }, el('span', { key: 'start.seed' }), seed),
    el('p', { cls: 'hint', key: 'fair.explain' }),
  ];
  const level = levelChoice();
  if (level) body.splice(2, 0, el('label', { cls: 'level' }, el('span', { key: 'start.level' }), level));
  const start = button('start.play', () => {
    if (starting) return;
    starting = true;
    if (table) table.over = null;
    closeDialog();
    const message = { type: 'start', game: gameId, contribution: seed.value };
    if (level) {
      message.level = level.value;
      localStorage.setItem(LEVEL_KEY, level.value);
    }
    net.send(message);
  }, { cls: 'primary', attrs: { id: 'start-match' } });
  dialog({ titleKey: gameKey(gameId), body, buttons: [start], closable: false, id: 'start' });
}

/** Return the select of the computers' level (the levels the server lists, the last one
 * chosen or the server's default selected), or null for a game played alone. */
function levelChoice() {
  const levels = declared.levels || [];
  if (!levels.length || declared.default_seats < 2) return null;
  const select = el('select', { attrs: { id: 'level' } });
  for (const name of levels) select.append(el('option', { key: `level.${name}`, attrs: { value: name } }));
  const kept = localStorage.getItem(LEVEL_KEY);
  select.value = levels.includes(kept) ? kept : declared.default_level || levels[levels.length - 1];
  return select;
}

function randomText() {
  const a = new Uint8Array(6);
  crypto.getRandomValues(a);
  return [...a].map((b) => b.toString(16).padStart(2, '0')).join('');
}

function onOver(m) {
  table.over = m;
  closeDialog();
  const again = button('over.again', newMatch, { cls: 'primary', attrs: { id: 'play-again' } });
  dialog({ titleKey: 'over.title', body: [...table.resultParts(m), publishForm(m)], buttons: [again], id: 'match-over', cls: 'wide' });
}

function newMatch() {
  closeDialog();
  ctx.matchId = null;
  table.over = null;
  wantNew = true;
  net.send({ type: 'hello', token: localStorage.getItem('meldhall.token') });
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
  const fair = button('ui.fairness', () => dialog({ titleKey: 'ui.fairness', body: table.fairness(table.over), id: 'fairness' }));
  const fresh = button('ui.new_match', () => {
    const yes = button('ui.new_match', newMatch, { cls: 'primary' });
    dialog({ titleKey: 'ui.new_match', body: el('p', { key: 'start.abandon' }), buttons: [yes] });
  });
  table.toolbar({ tools: [fair, fresh] });
}
