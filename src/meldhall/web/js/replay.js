// The replay page: a stored match step by step through the same table as play (board.js),
// read-only: play, pause, step back and forward, jump to a hand, speed, the seat to watch
// from once the match is over, and its match file to download. Every frame is the engine's
// own observation of that step, replayed by the server from the stored log.
import { boot, getJSON } from './page.js';
import { t, el, fmt } from './i18n.js';
import { openTable } from './board.js';
import { button } from './ui/parts.js';

const CHUNK = 50;
const SPEEDS = { slow: 1600, normal: 800, fast: 250 };
const matchId = decodeURIComponent(location.pathname.split('/')[2] || '');
const settings = await boot('records');
const upload = matchId ? null : await chooseFile();
const facts = await api({ count: 1 });
const over = facts.status !== 'playing';
let viewer = over ? 0 : null;
let frames = new Map();
let step = 0;
let timer = null;
let speed = 'normal';

const table = await openTable({ gameId: facts.game, settings, send: onSend, nameOf });
const stepText = el('span', { cls: 'replay-step', attrs: { id: 'replay-step', 'aria-live': 'off' } });
const playButton = button('replay.play', () => (timer ? pause() : play()), { attrs: { id: 'replay-play' } });
table.toolbar({ before: [controls()], tools: tools(), hints: false });
watchFrom(viewer);
await show(0, false);

/** Return the replay controls: to the start, back, play/pause, forward, hand, speed, seat. */
function controls() {
  const box = el('div', { cls: 'replay-controls', attrs: { role: 'group', 'aria-label': t('replay.controls') } });
  box.append(
    button('replay.start', () => show(0, false), { attrs: { id: 'replay-first' } }),
    button('replay.back', () => step > 0 && show(step - 1, false), { attrs: { id: 'replay-back' } }),
    playButton,
    button('replay.forward', () => step < facts.steps && show(step + 1, true), { attrs: { id: 'replay-forward' } }),
    stepText,
    handSelect(),
    choice('replay.speed', Object.keys(SPEEDS).map((s) => [s, `replay.speed_${s}`]), speed, (v) => { speed = v; }),
  );
  if (over) {
    const seats = [...Array(facts.seats).keys()].map((s) => [String(s), nameOf(s, { players: facts.players, seat: s, spectator: false })]);
    box.append(choice('replay.seat', seats, '0', (v) => { watchFrom(Number(v)); show(step, false); }, 'replay-seat'));
  }
  return box;
}

function tools() {
  const out = [];
  if (over && matchId) {
    out.push(button('review.open', startReview, { attrs: { id: 'review-start' } }));
    out.push(el('a', { key: 'replay.download', cls: 'button', attrs: { href: `/api/matches/${encodeURIComponent(matchId)}/file`, id: 'replay-download' } }));
    out.push(el('a', { key: 'fair.verify', cls: 'button', attrs: { href: `/verify/${encodeURIComponent(matchId)}` } }));
  }
  return out;
}

function handSelect() {
  const sel = el('select', { attrs: { id: 'replay-hand', 'aria-label': t('replay.hand_jump') } });
  facts.hands.forEach((start, i) => sel.append(el('option', { key: 'replay.hand', vars: { n: i + 1 }, attrs: { value: String(start) } })));
  sel.addEventListener('change', () => show(Number(sel.value), false));
  return sel;
}

/** Return a labelled select of [value, key-or-name] options calling `onChange(value)`. */
function choice(labelKey, options, value, onChange, id = '') {
  const sel = el('select', { attrs: { 'aria-label': t(labelKey), ...(id ? { id } : {}) } });
  for (const [v, label] of options) {
    const opt = typeof label === 'string' ? el('option', { key: label, attrs: { value: v } }) : el('option', { key: label.key, vars: label.vars, attrs: { value: v } });
    if (v === value) opt.selected = true;
    sel.append(opt);
  }
  sel.addEventListener('change', () => onChange(sel.value));
  return sel;
}

function watchFrom(seat) {
  viewer = seat;
  frames = new Map();
  table.match({ match: matchId, seat, seats: facts.seats, players: facts.players, commitment: facts.commitment, contributions: facts.contributions });
}

/** Return the frame of a step, fetching the run of frames around it when it is not known. */
async function frameAt(at) {
  if (!frames.has(at)) {
    const start = Math.max(0, Math.min(at, facts.steps) - (at < step ? CHUNK - 1 : 0));
    const got = await api({ seat: viewer, start, count: CHUNK });
    for (const f of got.frames) frames.set(f.step, f);
  }
  return frames.get(at);
}

/** Draw the table as it was after `at` actions; `forward` logs the step's moves. */
async function show(at, forward) {
  const f = await frameAt(at);
  if (!f) return;
  step = at;
  table.state({ type: 'state', match: matchId, state_id: at, to_act: f.to_act, paused: Boolean(f.hand_over), last_hand: f.hand_over, seat: viewer, observation: f.observation, legal: [], events: forward ? f.events : [] });
  stepText.textContent = t('replay.step', { n: fmt(at), total: fmt(facts.steps) });
  document.body.dataset.replayStep = String(at);
  const hand = document.getElementById('replay-hand');
  if (hand) hand.value = String(facts.hands[f.hand - 1] ?? 0);
  if (f.hand_over || at >= facts.steps) pause();
}

function play() {
  if (step >= facts.steps) return;
  playButton.textContent = t('replay.pause');
  const tick = async () => {
    await show(step + 1, true);
    if (timer) timer = setTimeout(tick, SPEEDS[speed]);
  };
  timer = setTimeout(tick, SPEEDS[speed]);
}

function pause() {
  clearTimeout(timer);
  timer = null;
  playButton.textContent = t('replay.play');
}

/** Return frames and facts: of the stored match, or of the match file opened from disk. */
async function api({ seat = null, start = 0, count = CHUNK }) {
  if (upload) {
    const r = await fetch('/api/replay-file', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: upload, seat, start, count }) });
    const got = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(got.detail || `replay-file: ${r.status}`);
    return got;
  }
  const query = new URLSearchParams({ seat: seat === null ? 'spectator' : String(seat), start: String(start), count: String(count) });
  return getJSON(`/api/replay/${encodeURIComponent(matchId)}?${query}`);
}

/** Return the match file the person opens from disk (the replay page without a match). */
function chooseFile() {
  return new Promise((resolve) => {
    const input = el('input', { attrs: { type: 'file', accept: 'application/json,.json', id: 'replay-file', 'aria-label': t('replay.open_file') } });
    const problem = el('p', { cls: 'bad', attrs: { 'aria-live': 'polite' } });
    input.addEventListener('change', async () => {
      try {
        resolve(JSON.parse(await input.files[0].text()));
      } catch {
        problem.replaceChildren(el('span', { key: 'replay.bad_file' }));
      }
    });
    document.getElementById('board').replaceChildren(el('div', { cls: 'replay-open' }, el('label', {}, el('span', { key: 'replay.open_file' }), input), problem));
  });
}

/** Ask the server to review the watched seat's decisions; show the progress, then the
 * summary and each disputed decision as a link to its step. */
async function startReview() {
  const seat = viewer ?? 0;
  const box = reviewBox();
  box.replaceChildren(el('p', { key: 'review.running', vars: { n: 0 } }));
  const post = await fetch(`/api/review/${encodeURIComponent(matchId)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ seat }) });
  let status = await post.json();
  while (status.state === 'running') {
    box.replaceChildren(el('p', { key: 'review.running', vars: { n: status.total ? Math.round((100 * status.done) / status.total) : 0 } }));
    await new Promise((r) => setTimeout(r, 700));
    status = await getJSON(`/api/review/${encodeURIComponent(matchId)}?seat=${seat}`);
  }
  if (status.state !== 'done') {
    box.replaceChildren(el('p', { cls: 'bad', key: 'review.failed', vars: { problem: status.problem || '' } }));
    return;
  }
  showReview(box, status.review);
}

function reviewBox() {
  let box = document.getElementById('review');
  if (!box) {
    box = el('section', { cls: 'review-panel', attrs: { id: 'review', 'aria-label': t('review.title') } });
    document.getElementById('felt').append(box);
  }
  return box;
}

function showReview(box, review) {
  const disputed = review.decisions.filter((d) => !d.agrees);
  const list = el('ol', { cls: 'review-list' });
  for (const d of disputed) {
    const loss = d.loss === null ? t('review.not_estimated') : fmt(Math.round(d.loss * 100) / 100);
    const item = el('li', {}, el('button', { cls: 'link', key: 'review.decision', vars: { hand: d.hand, played: d.played, best: d.best, loss }, attrs: { type: 'button', 'data-step': String(d.step) } }));
    item.firstChild.addEventListener('click', () => show(d.step, false));
    if (review.biggest.includes(d.step)) item.classList.add('big');
    list.append(item);
  }
  box.replaceChildren(
    el('h2', { key: 'review.title' }),
    el('p', { attrs: { id: 'review-summary' }, key: 'review.summary', vars: { agree: fmt(Math.round(review.agreement)), n: fmt(review.decisions.length), bot: review.bot } }),
    disputed.length ? list : el('p', { key: 'review.all_agree' }),
  );
}

/** The table's messages: "continue" (the end-of-hand dialog's Next) steps on; nothing else
 * is sent, a replay plays no move. */
function onSend(m) {
  if (m.type === 'continue' && step < facts.steps) show(step + 1, true);
}

function nameOf(seat, ctx) {
  const p = (ctx.players || [])[seat] || {};
  if (p.kind === 'person') return p.name ? { key: 'online.person', vars: { name: p.name } } : { key: 'replay.person', vars: { n: seat + 1 } };
  const bots = (ctx.players || []).map((q, i) => (q.kind === 'bot' ? i : -1)).filter((i) => i >= 0);
  return { key: 'seat.bot', vars: { n: bots.indexOf(seat) + 1 } };
}
