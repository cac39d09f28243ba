// What every page shares: settings, language, the header with its navigation.
import { loadLanguage, translate, el, t, LANGUAGES } from './i18n.js';
import { loadSettings, saveSettings, applyDisplay } from './settings.js';

export const LANG_NAMES = { en: 'English', tr: 'Türkçe', ru: 'Русский', ro: 'Română', zh: '中文' };

/** Return the settings after loading the language, drawing the header and translating. */
export async function boot(active = '') {
  const settings = loadSettings();
  settings.lang = await loadLanguage(settings.lang);
  applyDisplay(document.body, settings);
  const header = document.querySelector('header.site');
  if (header) header.replaceChildren(...headerParts(settings, active));
  translate();
  document.title = `${t(document.body.dataset.titleKey || 'site.name')} · meldhall`;
  return settings;
}

function headerParts(settings, active) {
  const link = (href, key, name) => el('a', { key, cls: name === active ? 'active' : '', attrs: { href } });
  const brand = el('a', { cls: 'brand', attrs: { href: '/' } }, el('span', { key: 'site.name' }));
  const select = languageSelect(settings, 'lang-select');
  const nav = el('nav', {}, link('/', 'nav.games', 'games'), link('/online', 'nav.online', 'online'), link('/records', 'nav.records', 'records'), link('/leaderboard', 'nav.leaderboard', 'leaderboard'), link('/account', 'nav.account', 'account'), link('/settings', 'nav.settings', 'settings'));
  return [brand, nav, select];
}

/** Return a language selector that keeps the choice and reloads the page. */
export function languageSelect(settings, id, cls = '') {
  const select = el('select', { cls, attrs: { id, 'aria-label': t('settings.language') } });
  for (const code of LANGUAGES) {
    const opt = el('option', { raw: LANG_NAMES[code], attrs: { value: code } });
    if (code === settings.lang) opt.selected = true;
    select.append(opt);
  }
  select.addEventListener('change', () => {
    saveSettings({ ...settings, lang: select.value });
    location.reload();
  });
  return select;
}

/** Return the session token kept in the browser (null before the first hello). */
export function token() {
  return localStorage.getItem('meldhall.token');
}

export function setToken(value) {
  localStorage.setItem('meldhall.token', value);
}

/** Return the status and JSON of a POST of a JSON body (the solo token in its header). */
export async function postJSON(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-meldhall-token': token() || '' }, body: JSON.stringify(body) });
  return { ok: r.ok, status: r.status, body: await r.json() };
}

/** Return the JSON of a GET request. */
export async function getJSON(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return r.json();
}

let games = null;

/** Return a promise of the games the server declares: the list it wrote in the page (the
 * table page's `<script type="application/json" id="games">`: no request before its first
 * screen), else `/api/games`, fetched once a page. */
export function gameList() {
  const written = document.getElementById('games')?.textContent;
  games ||= written ? Promise.resolve(JSON.parse(written)) : getJSON('/api/games');
  return games;
}

/** Return the title key of a game ("game.okey-ladder"). */
export function gameKey(id) {
  return `game.${id}`;
}
