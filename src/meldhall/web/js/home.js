// The home page: the game list with a few pieces of each game, links to play and to rules.
import { boot, getJSON, gameKey } from './page.js';
import { el } from './i18n.js';
import { pieceEl } from './ui/tiles.js';

await boot('games');
const games = await getJSON('/api/games');
const page = document.getElementById('page');
const list = el('div', { cls: 'games', attrs: { id: 'games' } });
for (const g of games) {
  const card = el('article', { cls: 'game-card', attrs: { 'data-game': g.id } },
    el('h2', { key: gameKey(g.id) }),
    el('div', { cls: 'preview' }, ...g.preview.pieces.map((tok) => pieceEl(g.preview.family, tok))),
    el('p', { key: `intro.${g.id}` }),
    el('p', { cls: 'meta', key: `mode.${g.id}` }),
    el('div', { cls: 'links' },
      el('a', { cls: 'button primary', key: 'home.play', attrs: { href: `/play/${g.id}` } }),
      el('a', { cls: 'button', key: 'home.rules', attrs: { href: `/rules/${g.id}` } })));
  list.append(card);
}
page.replaceChildren(el('h1', { key: 'home.title' }), el('p', { key: 'home.lead' }), list);
