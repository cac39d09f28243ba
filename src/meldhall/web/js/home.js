// The home page: the game list with a few pieces of each game, links to play and to rules.
import { boot, getJSON, gameKey } from './page.js';
import { el } from './i18n.js';
import { pieceEl } from './ui/tiles.js';

const PREVIEW = {
  okey: ['okey', ['R1a', 'R2a', 'R3a', 'K7a', 'Ja']],
  'okey-ladder': ['okey', ['B11a', 'B12a', 'B13a', 'Y9a', 'Y9b']],
  'tile-rummy': ['okey', ['K12a', 'K13a', 'K1a', 'Sa', 'R5a']],
  remi: ['card', ['10H#1', 'JH#1', 'QH#1', 'KH#1', 'JK#1']],
  sichuan: ['mahjong', ['1m', '5p', '1s', '9s', '8m']],
  'okey-cards': ['okeycard', ['R3', 'B3', 'Y3', 'B6', 'B7']],
};

await boot('games');
const games = await getJSON('/api/games');
const page = document.getElementById('page');
const list = el('div', { cls: 'games', attrs: { id: 'games' } });
for (const g of games) {
  const [family, tokens] = PREVIEW[g.id] || ['okey', []];
  const card = el('article', { cls: 'game-card', attrs: { 'data-game': g.id } },
    el('h2', { key: gameKey(g.id) }),
    el('div', { cls: 'preview' }, ...tokens.map((tok) => pieceEl(family, tok))),
    el('p', { key: `intro.${g.id}` }),
    el('p', { cls: 'meta', key: `mode.${g.id}` }),
    el('div', { cls: 'links' },
      el('a', { cls: 'button primary', key: 'home.play', attrs: { href: `/play/${g.id}` } }),
      el('a', { cls: 'button', key: 'home.rules', attrs: { href: `/rules/${g.id}` } })));
  list.append(card);
}
page.replaceChildren(el('h1', { key: 'home.title' }), el('p', { key: 'home.lead' }), list);
