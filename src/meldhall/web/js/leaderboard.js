// The leaderboard page: a game's best 100 accounts (place, name linked to the profile,
// rating with provisional ones marked, matches, wins, mean place) and the reader's own place.
import { boot, getJSON, gameKey } from './page.js';
import { el, fmt } from './i18n.js';

await boot('leaderboard');
const page = document.getElementById('page');
const games = (await getJSON('/api/games')).filter((g) => g.seats[1] > 1);
const wanted = new URLSearchParams(location.search).get('game');
const select = el('select', { attrs: { id: 'leaderboard-game' } });
for (const g of games) select.append(el('option', { key: gameKey(g.id), attrs: { value: g.id } }));
if (games.some((g) => g.id === wanted)) select.value = wanted;
const board = el('div', { attrs: { id: 'leaderboard' } });
select.addEventListener('change', () => {
  history.replaceState(null, '', `/leaderboard?game=${encodeURIComponent(select.value)}`);
  draw();
});
page.replaceChildren(el('h1', { key: 'leaderboard.title' }), el('p', { key: 'leaderboard.lead' }),
  el('label', { cls: 'field' }, el('span', { key: 'leaderboard.game' }), select), board);
await draw();

/** Return the cell of an account's rating ("1040", provisional ones marked). */
export function ratingCell(r) {
  return el('td', { key: r.provisional ? 'people.rating_provisional' : 'people.rating', vars: { rating: r.rating } });
}

async function draw() {
  const data = await getJSON(`/api/leaderboard/${encodeURIComponent(select.value)}`);
  const parts = [];
  if (data.you) parts.push(el('p', { attrs: { id: 'my-place' }, key: 'leaderboard.you', vars: { place: data.you.place, rating: data.you.rating } }));
  if (!data.top.length) {
    parts.push(el('p', { key: 'leaderboard.none' }));
  } else {
    const t = el('table', { cls: 'list', attrs: { id: 'leaderboard-table' } });
    t.append(el('thead', {}, el('tr', {}, ...['place', 'player', 'rating', 'matches', 'wins', 'mean_place'].map((k) => el('th', { key: `leaderboard.${k}` })))));
    const body = el('tbody');
    for (const r of data.top) {
      body.append(el('tr', { cls: data.you && data.you.place === r.place ? 'me' : '' },
        el('td', { raw: r.place }),
        el('td', {}, el('a', { raw: r.name, attrs: { href: `/players/${encodeURIComponent(r.name)}` } })),
        ratingCell(r), el('td', { raw: fmt(r.matches) }), el('td', { raw: fmt(r.wins) }), el('td', { raw: fmt(r.mean_place) })));
    }
    t.append(body);
    parts.push(t);
  }
  board.replaceChildren(...parts);
}
