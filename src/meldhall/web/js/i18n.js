// Message catalogs: one JSON file per language under /static/i18n/ (versioned as the
// scripts). Every visible string of the pages comes from here; elements with data-i18n get
// their text from the catalog.
import { loadSettings } from './settings.js';

export const LANGUAGES = ['en', 'tr', 'ru', 'ro', 'zh'];
let catalog = {};
let fallback = {};
let current = 'en';

// The version prefix of the static files this module came from ("/static/_v<hash>/"): the
// catalogs under it are cached as long as the page's scripts (server/static.py); "/static/"
// for a module loaded without one.
const STATIC = (import.meta.url.match(/\/static\/(?:_v\w+\/)?/) || ['/static/'])[0];
const requested = new Map();
/** Return the catalog of a language, fetched once per page. */
function get(lang) {
  if (!requested.has(lang)) requested.set(lang, fetch(`${STATIC}i18n/${lang}.json`).then((r) => r.json()));
  return requested.get(lang);
}
// Ask for the saved language's catalog as soon as the modules run, while the page's own
// modules are still being evaluated.
if (LANGUAGES.includes(loadSettings().lang)) get(loadSettings().lang);

/** Load the catalog of a language; return the language used. The page waits for its own
 * language alone: every catalog holds every key (tests/test_catalogs.py), and English, which
 * would fill a gap, comes after it. */
export async function loadLanguage(lang) {
  current = LANGUAGES.includes(lang) ? lang : 'en';
  catalog = await get(current);
  fallback = catalog;
  if (current !== 'en') get('en').then((en) => { fallback = en; }, () => {});
  document.documentElement.lang = current;
  return current;
}

export function language() {
  return current;
}

/**
 * Return the message of a key with {name} placeholders filled in.
 *
 * A message may have variants: `key_you` when the person spoken about is the reader
 * (`vars.you`), and `key.one` / `.few` / `.many` / `.other` chosen by the browser's own
 * plural rules for the count (`vars.count`, else `vars.n`, else `vars.points`). A language
 * is resolved whole in the chosen catalog before English fills the gap.
 */
export function t(key, vars = {}) {
  const text = pick(catalog, current, key, vars) ?? pick(fallback, 'en', key, vars) ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in vars ? fmt(vars[name]) : `{${name}}`));
}

/** Return the count that chooses a plural variant, or undefined. */
function countOf(vars) {
  const n = vars.count ?? vars.n ?? vars.points;
  return typeof n === 'number' ? n : undefined;
}

const pluralRules = new Map();
/** Return the CLDR plural category ("one", "few", "many", "other") of a count in a language. */
export function pluralCategory(lang, n) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang === 'zh' ? 'zh-CN' : lang));
  return pluralRules.get(lang).select(n);
}

/** Return the variant of a key a catalog holds for these vars, or undefined. */
function pick(cat, lang, key, vars) {
  const base = vars.you && (`${key}_you` in cat || `${key}_you.other` in cat) ? `${key}_you` : key;
  if (`${base}.other` in cat) {
    const n = countOf(vars);
    const category = n === undefined ? 'other' : pluralCategory(lang, n);
    return cat[`${base}.${category}`] ?? cat[`${base}.other`];
  }
  return cat[base];
}

/** Return whether a key exists in the catalog. */
export function has(key) {
  return [key, `${key}.other`].some((k) => k in catalog || k in fallback);
}

/** Return a number formatted for the current language. */
export function fmt(value) {
  return typeof value === 'number' ? value.toLocaleString(current === 'zh' ? 'zh-CN' : current) : String(value);
}

/** Fill every [data-i18n] element under root (and data-i18n-title / -placeholder). */
export function translate(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.dataset.i18n, el.dataset.i18nVars ? JSON.parse(el.dataset.i18nVars) : {});
  }
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
}

/** Return a new element with a translated text (key) or a raw text (raw). */
export function el(tag, opts = {}, ...children) {
  const node = document.createElement(tag);
  if (opts.cls) node.className = opts.cls;
  if (opts.key) {
    node.dataset.i18n = opts.key;
    node.textContent = t(opts.key, opts.vars);
    if (opts.vars) node.dataset.i18nVars = JSON.stringify(opts.vars);
  } else if (opts.raw !== undefined) {
    node.textContent = String(opts.raw);
    node.dataset.raw = '';
  }
  if (opts.title) node.title = opts.title;
  // a style goes through the CSSOM: the content security policy refuses style attributes
  if (opts.attrs) for (const [k, v] of Object.entries(opts.attrs)) if (k === 'style') node.style.cssText = v; else node.setAttribute(k, v);
  if (opts.on) for (const [k, v] of Object.entries(opts.on)) node.addEventListener(k, v);
  for (const child of children) if (child) node.append(child);
  return node;
}
