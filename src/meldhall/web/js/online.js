// The online page (docs/online.md): a guest name, the lobby of public tables, creating,
// joining and leaving a table, the host's start and the countdown, invite links, watching a
// table in play; then the shared table (board.js) with the online extras: every seat's name,
// computers labelled, connection dots, a computer playing for an absent person, the turn
// clock, notices and the shared score table. Display names are only ever set as text.
//
// The page's address names the table it is at (/online?table=ID, or ?watch=ID for a
// spectator), so a reload or a reconnection goes back to it (the server gives the seat back).
import { boot, gameKey, gameList } from './page.js';
import { t, el } from './i18n.js';
import { Net } from './net.js';
import { button, dialog, closeDialog, toast, scoreTable } from './ui/parts.js';
import { openTable } from './board.js';
import { ChatPanel } from './chat.js';

const NAME_KEY = 'meldhall.online.name';
const TURN_CHOICES = [15, 30, 60, 120];
const LOBBY_REFRESH_MS = 3000;
const GONE = ['no_table', 'table_full', 'table_started', 'not_started'];

const settings = await boot('online');
const page = document.getElementById('page');
const games = (await gameList()).filter((g) => g.default_seats > 1);
let myName = await guest(localStorage.getItem(NAME_KEY) || '');
let at = wantedTable();
let afterName = null;
let listing = [];
let waiting = null;
let startsAt = null;
let table = null;
let scores = null;
let clock = null;
let rematch = null;
let chain = Promise.resolve();

const lobby = buildLobby();
showLobby();
const chat = new ChatPanel((x) => net.send(x));
const chatShown = settings.chat !== false; // the person may hide table chat (settings page)
const net = new Net((m) => {
  chain = chain.then(() => onMessage(m)).catch((e) => setTimeout(() => { throw e; }));
}, (s) => document.body.classList.toggle('offline', s === 'closed'), { token: () => null });
setInterval(() => {
  if (!at && !document.body.classList.contains('offline')) net.send({ type: 'lobby' });
}, LOBBY_REFRESH_MS);
setInterval(tick, 250);

/** Return the display name kept by the server's guest session (the session cookie is set
 * before the first hello, so that a reconnection finds the same session). */
async function guest(name) {
  const r = await fetch('/api/guest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  const body = await r.json();
  return name.trim() ? body.name : '';
}

/** Return the table named by the page's address, if any. */
function wantedTable() {
  const q = new URLSearchParams(location.search);
  if (q.get('table')) return { id: q.get('table'), mode: 'join' };
  if (q.get('watch')) return { id: q.get('watch'), mode: 'watch' };
  return null;
}

function setAddress(target) {
  const url = target ? `/online?${target.mode === 'watch' ? 'watch' : 'table'}=${encodeURIComponent(target.id)}` : '/online';
  history.replaceState(null, '', url);
}

function inviteLink(id, mode = 'table') {
  return `${location.origin}/online?${mode}=${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------- messages

async function onMessage(m) {
  if (m.type === 'welcome') onWelcome();
  else if (m.type === 'lobby') onLobby(m);
  else if (m.type === 'table') onTable(m.table);
  else if (m.type === 'left') onLeft();
  else if (m.type === 'match') await onMatch(m);
  else if (m.type === 'state') onState(m);
  else if (m.type === 'players') onPlayers(m);
  else if (m.type === 'scores') scores = m;
  else if (m.type === 'clock') onClock(m);
  else if (m.type === 'notice') onNotice(m);
  else if (m.type === 'match_over') onOver(m);
  else if (m.type === 'rematch') onRematch(m);
  else if (['chat', 'chat_history', 'muted', 'reported'].includes(m.type)) chat.onMessage(m);
  else if (m.type === 'rejected') onRejected(m);
  else if (m.type === 'appraisal') table?.appraisal(m);
}

/** After every hello (the first one and each reconnection): back to the table, if any. */
function onWelcome() {
  chat.room = null; // after a reconnection the room's messages are asked for again
  if (at) enter(at);
  else net.send({ type: 'lobby' });
}

function enter(target) {
  if (target.mode === 'join' && !myName) {
    afterName = target;
    at = null;
    toast(t('online.need_name'));
    lobby.nameInput.focus();
    return;
  }
  at = target;
  if (target.mode === 'watch') net.send({ type: 'watch', table: target.id });
  else net.send({ type: 'join', table: target.id, name: myName });
}

function onLobby(m) {
  listing = m.tables;
  drawTables();
}

function onTable(tb) {
  at = { id: tb.id, mode: 'join' };
  if (table) return;
  setAddress(at);
  waiting = tb;
  startsAt = tb.countdown === null || tb.countdown === undefined ? null : performance.now() + tb.countdown * 1000;
  drawWaiting();
}

function onLeft() {
  if (table) {
    location.assign('/online');
    return;
  }
  at = null;
  waiting = null;
  startsAt = null;
  setAddress(null);
  showLobby();
  net.send({ type: 'lobby' });
}

function onRejected(m) {
  if (chat.rejected(m)) return;
  if (table) {
    table.rejected(m);
    return;
  }
  toast(t(`reject.${m.code}`), 'bad');
  if (waiting || !at || !GONE.includes(m.code)) return;
  if (m.code === 'table_started' && at.mode === 'join') {
    toast(t('online.watching_instead'));
    enter({ id: at.id, mode: 'watch' });
    return;
  }
  at = null;
  setAddress(null);
  showLobby();
  net.send({ type: 'lobby' });
}

async function onMatch(m) {
  if (!table) {
    page.hidden = true;
    document.querySelector('.page-grain').hidden = true;
    document.getElementById('table-main').hidden = false;
    document.body.classList.add('table-page');
    table = await openTable({ gameId: m.game, settings, send: (x) => net.send(x), nameOf, onRender: decorate });
    toolbar();
    chat.element.remove(); // out of the hidden waiting room: the toolbar's button opens it
  }
  if (chatShown) chat.enter(m.table);
  waiting = null;
  startsAt = null;
  table.match(m);
  document.getElementById('watching').hidden = !table.ctx.spectator;
  if (at) {
    at = { id: at.id, mode: table.ctx.spectator ? 'watch' : 'join' };
    setAddress(at);
  }
}

function onState(m) {
  if (!table) return;
  table.state(m);
  if ('clock' in m) onClock({ ...(m.clock || { seats: [], seconds: 0, paused: false }), state_id: m.state_id });
}

function onPlayers(m) {
  if (!table || m.match !== table.ctx.matchId) return;
  table.ctx.players = m.players;
  decorate();
}

/** Take a clock: a `clock` message, or the `clock` of a state (its seats, seconds left and
 * whether it is the pause between hands; no seats and no pause when none runs). */
function onClock(m) {
  clock = { ...m, until: performance.now() + m.seconds * 1000 };
  tick();
  decorate();
}

function onNotice(m) {
  if (!table) return;
  toast(el('span', { key: `online.notice_${m.kind}`, vars: { name: nameText(m.seat) } }), m.kind === 'reclaimed' ? '' : 'bad');
}

function onOver(m) {
  table.over = m;
  clock = null;
  showOver();
}

/** Show the match result: a person may play again (open the next match's table, or join the
 * one another person opened); everyone may go back to the lobby. */
function showOver() {
  closeDialog();
  const buttons = [button('online.back', () => location.assign('/online'), { cls: rematch ? '' : 'primary', attrs: { id: 'back-to-lobby' } })];
  if (!table.ctx.spectator) {
    const again = rematch
      ? button('online.rematch_join', () => location.assign(inviteLink(rematch.table)), { cls: 'primary', attrs: { id: 'rematch' } })
      : button('online.rematch', () => net.send({ type: 'rematch' }), { attrs: { id: 'rematch' } });
    buttons.unshift(again);
  }
  dialog({ titleKey: 'over.title', body: table.resultParts(table.over), buttons, id: 'match-over', cls: 'wide' });
}

/** Take a `rematch` message: the asker goes to the new table; the others are offered it. */
function onRematch(m) {
  if (!table || table.ctx.spectator) return;
  if (m.seat === table.ctx.seat) {
    location.assign(inviteLink(m.table));
    return;
  }
  rematch = m;
  toast(el('span', { key: 'online.rematch_offer', vars: { name: m.name } }));
  if (table.over) showOver();
}

// ---------------------------------------------------------------- lobby

function buildLobby() {
  const nameInput = el('input', { attrs: { type: 'text', id: 'guest-name', maxlength: '32', autocomplete: 'nickname', 'data-i18n-placeholder': 'online.name_hint' } });
  nameInput.placeholder = t('online.name_hint');
  nameInput.value = myName;
  const nameForm = el('form', { cls: 'row-form', attrs: { id: 'name-form' } },
    el('label', { key: 'online.your_name', attrs: { for: 'guest-name' } }), nameInput,
    el('button', { key: 'online.save_name', attrs: { type: 'submit', id: 'guest-save' } }));
  nameForm.addEventListener('submit', (e) => {
    e.preventDefault();
    saveName(nameInput.value);
  });

  const game = el('select', { attrs: { id: 'create-game' } });
  for (const g of games) game.append(el('option', { key: gameKey(g.id), attrs: { value: g.id } }));
  const open = el('input', { attrs: { type: 'checkbox', id: 'create-public' } });
  open.checked = true;
  const turn = el('select', { attrs: { id: 'create-turn' } });
  for (const n of TURN_CHOICES) turn.append(el('option', { key: 'online.seconds', vars: { n }, attrs: { value: String(n) } }));
  turn.value = '30';
  const hints = el('input', { attrs: { type: 'checkbox', id: 'create-hints' } });
  hints.checked = true;
  const chatOn = el('input', { attrs: { type: 'checkbox', id: 'create-chat' } });
  chatOn.checked = true;
  const levels = games[0]?.levels || [];
  const bots = el('select', { attrs: { id: 'create-bots' } });
  for (const name of levels) bots.append(el('option', { key: `level.${name}`, attrs: { value: name } }));
  bots.value = games[0]?.default_level || levels[levels.length - 1] || '';
  const createForm = el('form', { cls: 'row-form', attrs: { id: 'create-form' } },
    el('label', { key: 'online.game', attrs: { for: 'create-game' } }), game,
    el('label', { cls: 'check' }, open, el('span', { key: 'online.public' })),
    el('label', { key: 'online.turn_time', attrs: { for: 'create-turn' } }), turn,
    el('label', { cls: 'check' }, hints, el('span', { key: 'online.hints' })),
    el('label', { cls: 'check' }, chatOn, el('span', { key: 'chat.allowed' })),
    el('label', { key: 'online.bots_level', attrs: { for: 'create-bots' } }), bots,
    el('button', { key: 'online.create', cls: 'primary', attrs: { type: 'submit', id: 'create-table' } }));
  createForm.addEventListener('submit', (e) => {
    e.preventDefault();
    if (!needName()) return;
    net.send({ type: 'create', game: game.value, public: open.checked, settings: { turn_seconds: Number(turn.value), hints: hints.checked, chat: chatOn.checked, ...(bots.value ? { bots: bots.value } : {}) }, options: {}, name: myName });
  });

  const code = el('input', { attrs: { type: 'text', id: 'table-code', 'data-i18n-placeholder': 'online.code_hint' } });
  code.placeholder = t('online.code_hint');
  const byCode = (mode) => () => {
    const id = tableId(code.value);
    if (!id || (mode === 'join' && !needName())) return;
    enter({ id, mode });
  };
  const codeForm = el('div', { cls: 'row-form' }, code,
    button('online.join', byCode('join'), { attrs: { id: 'join-code' } }),
    button('online.watch', byCode('watch'), { attrs: { id: 'watch-code' } }));

  const tables = el('div', { attrs: { id: 'lobby-tables' } });
  const view = el('div', { cls: 'online-lobby' },
    el('h1', { key: 'online.title' }), el('p', { key: 'online.lead' }),
    el('section', { cls: 'box' }, nameForm),
    el('section', { cls: 'box' }, el('h2', { key: 'online.new_table' }), createForm),
    el('section', { cls: 'box' }, el('h2', { key: 'online.open_tables' }), tables),
    el('section', { cls: 'box' }, el('h2', { key: 'online.have_link' }), codeForm));
  return { view, nameInput, tables };
}

/** Return the table id in a pasted invite link or code. */
function tableId(text) {
  const raw = text.trim();
  try {
    const q = new URL(raw).searchParams;
    return q.get('table') || q.get('watch') || '';
  } catch {
    return raw;
  }
}

function needName() {
  if (myName) return true;
  toast(t('online.need_name'), 'bad');
  lobby.nameInput.focus();
  return false;
}

async function saveName(raw) {
  myName = await guest(raw);
  if (myName) localStorage.setItem(NAME_KEY, myName);
  else localStorage.removeItem(NAME_KEY);
  lobby.nameInput.value = myName;
  if (myName) toast(el('span', { key: 'online.name_saved', vars: { name: myName } }));
  if (afterName && myName) {
    const target = afterName;
    afterName = null;
    enter(target);
  }
}

function showLobby() {
  page.replaceChildren(lobby.view);
  drawTables();
}

function drawTables() {
  if (!listing.length) {
    lobby.tables.replaceChildren(el('p', { cls: 'hint', key: 'online.no_tables', attrs: { id: 'no-tables' } }));
    return;
  }
  const list = el('table', { cls: 'list' });
  list.append(el('thead', {}, el('tr', {}, el('th', { key: 'online.game' }), el('th', { key: 'online.host' }), el('th', { key: 'online.players' }), el('th'))));
  const body = el('tbody');
  for (const tb of listing) {
    const join = tb.status === 'playing'
      ? button('online.watch', () => enter({ id: tb.id, mode: 'watch' }), { attrs: { 'data-watch': tb.id } })
      : button('online.join', () => {
        if (needName()) enter({ id: tb.id, mode: 'join' });
      }, { attrs: { 'data-join': tb.id } });
    body.append(el('tr', { attrs: { 'data-table': tb.id } },
      el('td', { key: gameKey(tb.game) }),
      el('td', {}, el('span', { cls: 'person-name', raw: tb.host ?? '' }), ' ', ratingBadge(tb.ratings?.[tb.host_index])),
      el('td', { raw: `${tb.people.length}/${tb.seats}` }),
      el('td', {}, join)));
  }
  list.append(body);
  lobby.tables.replaceChildren(list);
}

// ---------------------------------------------------------------- a waiting table

function drawWaiting() {
  const tb = waiting;
  const people = el('ul', { cls: 'people', attrs: { id: 'people' } });
  tb.people.forEach((name, i) => {
    people.append(el('li', {}, el('span', { cls: 'person-name', raw: name }), ratingBadge(tb.ratings?.[i]), i === tb.host_index ? el('span', { cls: 'badge', key: 'online.host' }) : null));
  });
  if (tb.you !== null) people.children[tb.you]?.classList.add('me');
  for (let i = tb.people.length; i < tb.seats; i++) people.append(el('li', { cls: 'empty', key: 'online.empty_seat' }));
  const host = tb.you_host;
  const buttons = el('div', { cls: 'row-form' });
  if (host) {
    const begin = button('online.begin', () => net.send({ type: 'begin' }), { cls: 'primary', attrs: { id: 'begin-table' } });
    begin.disabled = tb.people.length < 2 || startsAt !== null || tb.status !== 'waiting';
    buttons.append(begin);
  }
  buttons.append(button('online.leave', () => net.send({ type: 'leave' }), { attrs: { id: 'leave-table' } }));
  page.replaceChildren(el('div', { cls: 'online-waiting', attrs: { id: 'waiting', 'data-table': tb.id } },
    el('h1', { key: gameKey(tb.game) }),
    el('p', { key: tb.public ? 'online.table_public' : 'online.table_private' }),
    share(inviteLink(tb.id), 'online.invite', 'invite-link'),
    el('h2', { key: 'online.people', vars: { n: tb.people.length, seats: tb.seats } }),
    people,
    el('p', { cls: 'hint', key: host ? 'online.host_hint' : 'online.guest_hint' }),
    el('p', { cls: 'countdown-text', attrs: { id: 'countdown', role: 'timer', 'aria-live': 'polite' } }),
    buttons, chatShown ? chat.element : null));
  if (chatShown) chat.enter(tb.id);
  tick();
}

/** Return the badge of an account's rating (provisional ones marked), or null for a guest. */
function ratingBadge(r) {
  if (!r) return null;
  return el('span', { cls: `badge rating${r.provisional ? ' provisional' : ''}`, key: r.provisional ? 'people.rating_provisional' : 'people.rating', vars: { rating: r.rating } });
}

/** Return a link to share, with a copy button. */
function share(link, key, id) {
  const input = el('input', { attrs: { type: 'text', readonly: '', id, value: link } });
  const copy = button('online.copy', async () => {
    input.select();
    try {
      await navigator.clipboard.writeText(link);
      toast(t('online.copied'));
    } catch {
      document.execCommand?.('copy');
    }
  });
  return el('div', { cls: 'share' }, el('label', { key, attrs: { for: id } }), el('div', { cls: 'row-form' }, input, copy));
}

// ---------------------------------------------------------------- the table in play

/** Return the {key, vars} of a seat's name: a person by name (the player's own "(you)"),
 * a computer as "Computer n". */
function nameOf(seat, ctx) {
  const p = ctx.players[seat] || {};
  if (p.kind === 'person') {
    const mine = !ctx.spectator && seat === ctx.seat;
    return { key: mine ? 'online.you_named' : 'online.person', vars: { name: p.name ?? '' } };
  }
  const bots = ctx.players.map((q, i) => (q.kind === 'bot' ? i : -1)).filter((i) => i >= 0);
  return { key: 'seat.bot', vars: { n: bots.indexOf(seat) + 1 } };
}

function nameText(seat) {
  const n = nameOf(seat, table.ctx);
  return t(n.key, n.vars);
}

function toolbar() {
  const clockBox = el('div', { cls: 'turn-clock', attrs: { id: 'turn-clock', role: 'timer' } });
  const watching = el('span', { cls: 'chip', key: 'online.watching', attrs: { id: 'watching', hidden: '' } });
  const watch = button('online.share', () => dialog({
    titleKey: 'online.share',
    body: [el('p', { key: 'online.share_hint' }), share(inviteLink(at?.id ?? '', 'watch'), 'online.watch_link', 'watch-link')],
    id: 'share',
  }), { attrs: { id: 'share-button' } });
  const leave = button('online.leave', () => {
    if (table.ctx.spectator || table.over) {
      net.send({ type: 'leave' });
      return;
    }
    const yes = button('online.leave', () => net.send({ type: 'leave' }), { cls: 'primary', attrs: { id: 'leave-confirm' } });
    dialog({ titleKey: 'online.leave', body: el('p', { key: 'online.leave_hint' }), buttons: [yes], id: 'leave' });
  }, { attrs: { id: 'leave-table' } });
  const talk = button('chat.title', () => {
    talk.classList.remove('unread');
    dialog({ titleKey: 'chat.title', body: [chat.element], id: 'chat-dialog' });
    chat.input.focus();
  }, { attrs: { id: 'chat-button' } });
  chat.onUnread = () => { if (!chat.element.isConnected) talk.classList.add('unread'); };
  table.toolbar({ before: [watching, clockBox], tools: chatShown ? [talk, watch, leave] : [watch, leave], scores: scoresBody });
}

/** Return the shared score table: the totals after every finished hand, the current hand's
 * scores, and each finished hand's result. */
function scoresBody() {
  const { ctx, view } = table;
  const rounds = scores?.rounds || [];
  const rows = rounds.map((h) => h.totals ?? h.scores ?? []);
  const now = scores?.current?.scores;
  const current = Array.isArray(now) ? now : Array.isArray(now?.round) ? now.round : null;
  const parts = [scoreTable({ seats: ctx.seats, nameOf: ctx.nameOf, rows, current, totals: null, rowKey: 'scores.round' })];
  if (!rounds.length) parts.push(el('p', { cls: 'hint', key: 'online.no_rounds' }));
  rounds.forEach((h, i) => {
    parts.push(el('details', { cls: 'round-detail' }, el('summary', { key: 'scores.round', vars: { n: i + 1 } }), view.handOver(h, ctx.state.observation)));
  });
  return parts;
}

function clockRuns() {
  return !!(clock && table?.ctx.state && clock.state_id === table.ctx.state.state_id && !table.over);
}

/** Mark every seat panel: connected or not, a computer playing for its person, its clock. */
function decorate() {
  if (!table) return;
  const { ctx } = table;
  const runs = clockRuns();
  for (const panel of ctx.board.querySelectorAll('.seat-panel[data-seat]')) {
    const s = Number(panel.dataset.seat);
    const p = ctx.players[s] || {};
    const person = p.kind === 'person';
    const on = !person || p.connected !== false;
    const dot = panel.querySelector('.dot');
    if (dot) {
      dot.classList.toggle('on', on);
      dot.title = t(on ? 'online.connected' : 'online.disconnected');
    }
    panel.classList.toggle('away', !on);
    const standin = panel.querySelector('.standin');
    if (person && p.computer_plays && !standin) panel.querySelector('.name')?.append(el('span', { cls: 'badge standin', key: 'online.computer_plays' }));
    if (!(person && p.computer_plays) && standin) standin.remove();
    if (person && p.rating && !panel.querySelector('.rating')) panel.querySelector('.name')?.append(ratingBadge(p.rating));
    panel.classList.toggle('clocked', runs && !clock.paused && clock.seats.includes(s));
  }
}

/** Update the countdowns on screen: the table's start, the turn clock. */
function tick() {
  const start = document.getElementById('countdown');
  if (start && waiting) {
    if (waiting.status === 'playing') setText(start, 'online.starting_now', {});
    else if (startsAt !== null) setText(start, 'online.starting', { n: Math.max(0, Math.ceil((startsAt - performance.now()) / 1000)) });
    else start.replaceChildren();
  }
  const box = document.getElementById('turn-clock');
  if (!box) return;
  if (!clockRuns() || (!clock.paused && !clock.seats.length)) {
    box.replaceChildren();
    box.classList.remove('short');
    return;
  }
  const n = Math.max(0, Math.ceil((clock.until - performance.now()) / 1000));
  const { ctx } = table;
  if (clock.paused) setText(box, 'online.next_hand_in', { n });
  else if (!ctx.spectator && clock.seats.includes(ctx.seat)) setText(box, 'online.your_time', { n });
  else setText(box, 'online.their_time', { n, name: clock.seats.map(nameText).join(', ') });
  box.classList.toggle('short', !clock.paused && n <= 5);
}

function setText(box, key, vars) {
  const text = t(key, vars);
  if (box.textContent !== text) box.replaceChildren(el('span', { key, vars }));
}
