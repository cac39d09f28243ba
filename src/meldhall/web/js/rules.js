// A game's rules page: the "Table" tab (a short summary of what is on the table) and the
// "Full rules" tab, both in the chosen language (/static/rules/<game>.<lang>.json).
import { boot, getJSON, gameKey } from './page.js';
import { el, language } from './i18n.js';

const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
await boot('games');
const rules = await getJSON(`/static/rules/${gameId}.${language()}.json`);
const page = document.getElementById('page');
const tabs = el('div', { cls: 'tabs', attrs: { role: 'tablist' } });
const panels = {};
for (const [name, key] of [['table', 'rules.tab_table'], ['full', 'rules.tab_full']]) {
  const tab = el('button', { key, attrs: { role: 'tab', id: `tab-${name}`, type: 'button' } });
  tab.addEventListener('click', () => show(name));
  tabs.append(tab);
}
panels.table = el('div', { cls: 'rules', attrs: { role: 'tabpanel', id: 'panel-table' } },
  el('p', { cls: 'meta', key: `mode.${gameId}` }),
  el('p', { cls: 'lead', raw: rules.lead }),
  ...rules.table.map(section),
  el('section', { attrs: { id: 'keys' } }, el('h2', { key: 'a11y.keys_title' }), el('p', { key: 'a11y.keys' })));
panels.full = el('div', { cls: 'rules', attrs: { role: 'tabpanel', id: 'panel-full' } }, ...rules.full.map(section));

function section(s, i) {
  const list = el(s.ordered ? 'ol' : 'ul');
  for (const item of s.items) list.append(el('li', { raw: item }));
  return el('section', {}, el('h2', { raw: s.title }), list);
}

function show(name) {
  for (const [n, panel] of Object.entries(panels)) panel.hidden = n !== name;
  for (const tab of tabs.children) tab.setAttribute('aria-selected', String(tab.id === `tab-${name}`));
  history.replaceState(null, '', `#${name}`);
}

const play = el('a', { cls: 'button primary', key: 'home.play', attrs: { href: `/play/${gameId}` } });
page.replaceChildren(el('h1', { key: gameKey(gameId) }), tabs, panels.table, panels.full, play);
show(location.hash === '#full' ? 'full' : 'table');
