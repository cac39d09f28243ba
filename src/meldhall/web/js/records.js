// The records page: the player's best result per game and every finished solo match, the
// online matches of this browser's guest, then the public records table. Names are always set as text, never as HTML.
import { boot, gameKey, token } from './page.js';
import { el, fmt } from './i18n.js';

await boot('records');
// The session token travels in a header, never in the URL (URLs reach access logs).
const reply = await fetch('/api/records', { headers: { 'x-meldhall-token': token() || '' } });
if (!reply.ok) throw new Error(`/api/records: ${reply.status}`);
const data = await reply.json();
const page = document.getElementById('page');

function table(rows, withName) {
  const t = el('table', { cls: 'list' });
  const head = el('tr', {}, el('th', { key: 'records.game' }), el('th', { key: 'records.score' }), el('th', { key: 'records.place' }), el('th', { key: 'records.date' }), el('th', { key: 'replay.title' }));
  if (withName) head.prepend(el('th', { key: 'records.player' }));
  t.append(el('thead', {}, head));
  const body = el('tbody');
  for (const r of rows) {
    const tr = el('tr', {}, el('td', { key: gameKey(r.game) }), el('td', { raw: fmt(r.score) }), el('td', { raw: r.rank }), el('td', { raw: new Date(r.finished).toLocaleDateString() }), replayCell(r.match));
    if (withName) tr.prepend(el('td', { raw: r.name || '' }));
    body.append(tr);
  }
  t.append(body);
  return t;
}

/** Return the cell that links a finished match to its replay. */
function replayCell(match) {
  return el('td', {}, el('a', { key: 'replay.open', cls: 'replay-link', attrs: { href: `/replay/${encodeURIComponent(match)}` } }));
}

/** Return the table of the guest's online matches: game, every person's score (own in bold),
 * own place and date. */
function onlineTable(rows) {
  const t = el('table', { cls: 'list', attrs: { id: 'online-results' } });
  t.append(el('thead', {}, el('tr', {}, el('th', { key: 'records.game' }), el('th', { key: 'records.players' }), el('th', { key: 'records.place' }), el('th', { key: 'records.date' }), el('th', { key: 'replay.title' }))));
  const body = el('tbody');
  for (const r of rows) {
    const people = el('td');
    r.people.forEach((p, i) => {
      if (i) people.append(', ');
      people.append(el(p.seat === r.seat ? 'strong' : 'span', { raw: `${p.name} ${fmt(p.score)}` }));
    });
    body.append(el('tr', {}, el('td', { key: gameKey(r.game) }), people, el('td', { raw: r.rank }), el('td', { raw: new Date(r.finished).toLocaleDateString() }), replayCell(r.match)));
  }
  t.append(body);
  return t;
}

const best = Object.values(data.best);
page.replaceChildren(
  el('h1', { key: 'records.title' }),
  el('p', { key: 'records.lead' }),
  el('h2', { key: 'records.best' }),
  best.length ? table(best, false) : el('p', { key: 'records.none' }),
  el('h2', { key: 'records.mine' }),
  data.mine.length ? table(data.mine, false) : el('p', { key: 'records.none' }),
  el('h2', { key: 'records.online' }),
  data.online.length ? onlineTable(data.online) : el('p', { key: 'records.online_none' }),
  el('h2', { key: 'records.public' }),
  data.public.length ? table(data.public, true) : el('p', { key: 'records.none_public' }),
);
