// A player's profile: per game the rating, place, matches, wins, mean place and best solo
// score, the rating history as a plot the server draws (SVG), and the latest online matches
// linked to their replays. The name is only ever set as text.
import { boot, getJSON, gameKey } from './page.js';
import { el, fmt, t } from './i18n.js';

await boot('leaderboard');
const page = document.getElementById('page');
const name = decodeURIComponent(location.pathname.split('/').pop());
const data = await getJSON(`/api/players/${encodeURIComponent(name)}`);

function fact(key, value) {
  return [el('dt', { key }), el('dd', value === null || value === undefined ? { raw: '–' } : { raw: fmt(value) })];
}

const sections = data.games.map((g) => {
  const facts = el('dl', { cls: 'facts-list' },
    ...(g.rating === null ? [] : [el('dt', { key: 'leaderboard.rating' }), el('dd', { key: g.provisional ? 'people.rating_provisional' : 'people.rating', vars: { rating: g.rating } })]),
    ...fact('profile.place', g.place), ...fact('leaderboard.matches', g.matches), ...fact('leaderboard.wins', g.wins),
    ...fact('leaderboard.mean_place', g.mean_place), ...fact('profile.best_solo', g.best_solo));
  const section = el('section', { cls: 'profile-game', attrs: { 'data-game': g.game } }, el('h2', { key: gameKey(g.game) }), facts);
  if (g.history.length) {
    section.append(el('img', { cls: 'rating-plot', attrs: {
      src: `/api/players/${encodeURIComponent(data.name)}/plot/${encodeURIComponent(g.game)}.svg`,
      alt: t('profile.plot_alt', { game: t(gameKey(g.game)), count: g.history.length }), width: '480', height: '160',
    } }));
  }
  return section;
});

const recent = el('table', { cls: 'list', attrs: { id: 'recent-matches' } });
recent.append(el('thead', {}, el('tr', {}, el('th', { key: 'records.game' }), el('th', { key: 'records.place' }), el('th', { key: 'records.date' }), el('th', { key: 'replay.title' }))));
const body = el('tbody');
for (const r of data.recent) {
  body.append(el('tr', {}, el('td', { key: gameKey(r.game) }), el('td', { raw: r.rank }), el('td', { raw: new Date(r.finished).toLocaleDateString() }),
    el('td', {}, el('a', { key: 'replay.open', attrs: { href: `/replay/${encodeURIComponent(r.match)}` } }))));
}
recent.append(body);

page.replaceChildren(
  el('h1', { raw: data.name, attrs: { id: 'profile-name' } }),
  ...(sections.length ? sections : [el('p', { key: 'profile.none' })]),
  el('h2', { key: 'profile.recent' }),
  data.recent.length ? recent : el('p', { key: 'records.online_none' }));
