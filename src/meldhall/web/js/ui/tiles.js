// Tiles and cards drawn as SVG strings (cached by face). No font is used: numerals, letters
// and marks are strokes and paths (glyphs.js). Each colour also carries its own mark.
import { strokeText, mark, han, colourLetter } from './glyphs.js';
import { pieceName } from './names.js';

export const OKEY_COLOURS = {
  R: { ink: '#c0262d', mark: 'heart', hollow: true },
  K: { ink: '#1d1d1f', mark: 'spade' },
  Y: { ink: '#945a00', mark: 'sun' },
  B: { ink: '#1559b7', mark: 'drop' },
};
const SUIT_MARK = { S: 'spade', H: 'heart', D: 'diamond', C: 'club' };
const SUIT_INK = { S: '#1d1d1f', H: '#c0262d', D: '#c0262d', C: '#1d1d1f' };
const CARD_INK = { R: '#c0262d', B: '#1559b7', Y: '#945a00' };
const CARD_MARK = { R: 'heart', B: 'drop', Y: 'sun' };
const cache = new Map();

/** Return the parsed face of an okey-family token: {colour, number} or {blank: 'J'|'S'}. */
export function okeyFace(token) {
  const m = /^([RKYB])(\d{1,2})/.exec(token);
  if (m) return { colour: m[1], number: Number(m[2]) };
  return { blank: token[0] };
}

/** Return the face of a token without its copy suffix ("R5a" -> "R5", "10H#2" -> "10H"). */
export function faceOf(token) {
  return token.replace(/[ab]?\*?$/, '').replace(/#\d$/, '');
}

function svg(w, h, body, cls) {
  return `<svg class="${cls}" viewBox="0 0 ${w} ${h}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">${body}</svg>`;
}

function tileBase(w, h, fill = '#fbf3df') {
  return `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="5" fill="#d9c9a3"/>`
    + `<rect x="1" y="1" width="${w - 2}" height="${h - 4.5}" rx="5" fill="${fill}" stroke="#cdbb92" stroke-width=".8"/>`;
}

/** Return the SVG of an okey-family tile (okey, okey-ladder, tile rummy). */
export function okeyTileSvg(token, joker = false) {
  const key = `o${token}${joker ? '*' : ''}`;
  if (cache.has(key)) return cache.get(key);
  const f = okeyFace(token);
  let body = tileBase(40, 56);
  if (f.blank === 'J') {
    body += mark('clover', 8, 12, 24, '#2e7d32') + `<circle cx="20" cy="44" r="2.4" fill="#2e7d32"/>`;
  } else if (f.blank === 'S') {
    body += '<circle cx="20" cy="24" r="13" fill="#f2c200" stroke="#8a6d00" stroke-width="1.4"/>'
      + '<circle cx="15.5" cy="20.5" r="1.8" fill="#3b2f00"/><circle cx="24.5" cy="20.5" r="1.8" fill="#3b2f00"/>'
      + '<path d="M13.5 27c3.5 4.5 9.5 4.5 13 0" fill="none" stroke="#3b2f00" stroke-width="1.8" stroke-linecap="round"/>';
  } else {
    const c = OKEY_COLOURS[f.colour];
    body += strokeText(f.number, 20, 8, 21, c.ink, 3.2) + mark(c.mark, 14, 35, 12, c.ink, c.hollow) + colourLetter(f.colour, 33, 44.5, 7, c.ink);
    if (joker) body += mark('star', 29, 3.5, 8.5, '#8a6d00');
  }
  const out = svg(40, 56, body, 'face okey');
  cache.set(key, out);
  return out;
}

/** Return the SVG of a tile or card back. */
export function backSvg(kind = 'okey') {
  const key = `back${kind}`;
  if (cache.has(key)) return cache.get(key);
  const [w, h] = kind === 'card' ? [50, 70] : kind === 'mahjong' ? [36, 48] : [40, 56];
  const fill = kind === 'card' ? '#8e2430' : '#1f6f5c';
  const body = `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="5" fill="${fill}" stroke="#0e3b30" stroke-width=".8"/>`
    + `<rect x="5" y="5" width="${w - 10}" height="${h - 10}" rx="3" fill="none" stroke="#ffffff55" stroke-width="1.2"/>`
    + `<path d="M${w / 2} 12 ${w - 10} ${h / 2} ${w / 2} ${h - 12} 10 ${h / 2}Z" fill="#ffffff22"/>`;
  const out = svg(w, h, body, 'face back');
  cache.set(key, out);
  return out;
}

// Pip positions (in a 50 x 70 card) for ranks 1..10.
const PIPS = {
  1: [[25, 35]],
  2: [[25, 16], [25, 54]],
  3: [[25, 16], [25, 35], [25, 54]],
  4: [[16, 16], [34, 16], [16, 54], [34, 54]],
  5: [[16, 16], [34, 16], [25, 35], [16, 54], [34, 54]],
  6: [[16, 16], [34, 16], [16, 35], [34, 35], [16, 54], [34, 54]],
  7: [[16, 16], [34, 16], [25, 25.5], [16, 35], [34, 35], [16, 54], [34, 54]],
  8: [[16, 16], [34, 16], [25, 25.5], [16, 35], [34, 35], [25, 44.5], [16, 54], [34, 54]],
  9: [[16, 14], [34, 14], [16, 28], [34, 28], [25, 35], [16, 42], [34, 42], [16, 56], [34, 56]],
  10: [[16, 14], [34, 14], [25, 21], [16, 28], [34, 28], [16, 42], [34, 42], [25, 49], [16, 56], [34, 56]],
};
const RANK_TEXT = { 1: 'A', 11: 'J', 12: 'Q', 13: 'K' };

/** Return the parsed card token: {rank 1..13, suit} or {joker: true}. */
export function cardFace(token) {
  const m = /^(A|[2-9]|10|J|Q|K)([SHDC])/.exec(token);
  if (!m) return { joker: true };
  const rank = { A: 1, J: 11, Q: 12, K: 13 }[m[1]] || Number(m[1]);
  return { rank, suit: m[2] };
}

/** Return the SVG of a Remi card (two packs and jokers). */
export function cardSvg(token) {
  const f = cardFace(token);
  const key = `c${f.joker ? 'JK' + token.slice(-1) : f.rank + f.suit}`;
  if (cache.has(key)) return cache.get(key);
  let body = '<rect x="1" y="1" width="48" height="68" rx="4.5" fill="#fffdf8" stroke="#b9b2a3" stroke-width=".9"/>';
  if (f.joker) {
    const ink = token.endsWith('2') ? '#c0262d' : '#1d1d1f';
    body += '<path d="M12 40c2-14 8-22 13-24 5 2 11 10 13 24Z" fill="#6a1b9a" opacity=".85"/>'
      + '<path d="M12 40 7 22l9 8M38 40l5-18-9 8M25 16V7" fill="none" stroke="#6a1b9a" stroke-width="2" stroke-linecap="round"/>'
      + '<circle cx="7" cy="21" r="2.4" fill="#f2c200"/><circle cx="43" cy="21" r="2.4" fill="#f2c200"/><circle cx="25" cy="6" r="2.4" fill="#f2c200"/>'
      + '<path d="M12 41h26v5H12Z" fill="#f2c200"/>'
      + mark('star', 19, 50, 12, ink) + strokeText('J', 7, 4, 9, ink, 1.8);
  } else {
    const ink = SUIT_INK[f.suit];
    const m = SUIT_MARK[f.suit];
    body += strokeText(RANK_TEXT[f.rank] || f.rank, 8, 4, 9, ink, 1.7) + mark(m, 3.5, 15, 9, ink);
    if (f.rank <= 10) {
      const s = f.rank === 1 ? 18 : 9.5;
      for (const [x, y] of PIPS[f.rank]) body += mark(m, x - s / 2, y - s / 2, s, ink);
    } else {
      body += '<rect x="13" y="11" width="28" height="48" rx="2" fill="#f6ecd2" stroke="' + ink + '" stroke-width=".8"/>'
        + strokeText(RANK_TEXT[f.rank], 27, 19, 17, ink, 2.6) + mark(m, 21, 41, 12, ink)
        + '<path d="M19 17l3-4 5 3 5-3 3 4" fill="none" stroke="#d4a106" stroke-width="1.5"/>';
    }
  }
  const out = svg(50, 70, body, 'face card');
  cache.set(key, out);
  return out;
}

// Dot positions for the dots suit (36 x 48 tile).
const DOTS = {
  1: [[18, 24, 9]],
  2: [[18, 13, 5.5], [18, 35, 5.5]],
  3: [[9, 11, 4.6], [18, 24, 4.6], [27, 37, 4.6]],
  4: [[10.5, 14, 5], [25.5, 14, 5], [10.5, 34, 5], [25.5, 34, 5]],
  5: [[10, 12, 4.5], [26, 12, 4.5], [18, 24, 4.5], [10, 36, 4.5], [26, 36, 4.5]],
  6: [[11, 10, 4.2], [25, 10, 4.2], [11, 24, 4.2], [25, 24, 4.2], [11, 38, 4.2], [25, 38, 4.2]],
  7: [[8, 8, 3.6], [18, 11, 3.6], [28, 14, 3.6], [11, 27, 3.6], [25, 27, 3.6], [11, 38.5, 3.6], [25, 38.5, 3.6]],
  8: [[11, 8, 3.6], [25, 8, 3.6], [11, 18.5, 3.6], [25, 18.5, 3.6], [11, 29, 3.6], [25, 29, 3.6], [11, 39.5, 3.6], [25, 39.5, 3.6]],
  9: [[8.5, 10, 3.6], [18, 10, 3.6], [27.5, 10, 3.6], [8.5, 24, 3.6], [18, 24, 3.6], [27.5, 24, 3.6], [8.5, 38, 3.6], [18, 38, 3.6], [27.5, 38, 3.6]],
};
const DOT_INK = ['#1559b7', '#2e7d32', '#c0262d'];
// Bamboo stick positions: [x, y] of each stick's centre (stick 12 high).
const STICKS = {
  2: [[18, 13], [18, 35]],
  3: [[18, 13], [11, 35], [25, 35]],
  4: [[11, 13], [25, 13], [11, 35], [25, 35]],
  5: [[9, 13], [27, 13], [18, 24], [9, 35], [27, 35]],
  6: [[9, 13], [18, 13], [27, 13], [9, 35], [18, 35], [27, 35]],
  7: [[18, 9], [9, 24], [18, 24], [27, 24], [9, 39], [18, 39], [27, 39]],
  8: [[9, 13], [18, 9], [27, 13], [9, 35], [18, 39], [27, 35], [13.5, 24], [22.5, 24]],
  9: [[9, 9], [18, 9], [27, 9], [9, 24], [18, 24], [27, 24], [9, 39], [18, 39], [27, 39]],
};

function stick(x, y, ink) {
  return `<rect x="${x - 2}" y="${y - 6}" width="4" height="12" rx="2" fill="${ink}"/>`
    + `<path d="M${x - 2} ${y}h4" stroke="#fbf3df" stroke-width=".8"/>`;
}

/** Return the SVG of a Sichuan mahjong tile ("5p#2", "9s", "3m"). */
export function mahjongSvg(token) {
  const rank = Number(token[0]);
  const suit = token[1];
  const key = `m${rank}${suit}`;
  if (cache.has(key)) return cache.get(key);
  let body = tileBase(36, 48, '#fdf8ec');
  if (suit === 'm') {
    body += han(rank, 8, 4.5, 20, '#1d2b5a', 2) + han('wan', 7, 25, 22, '#c0262d', 1.7);
  } else if (suit === 'p') {
    DOTS[rank].forEach(([x, y, r], i) => {
      const ink = rank === 1 ? '#c0262d' : DOT_INK[(i + rank) % 3];
      body += `<circle cx="${x}" cy="${y}" r="${r}" fill="none" stroke="${ink}" stroke-width="1.6"/><circle cx="${x}" cy="${y}" r="${(r / 2.6).toFixed(2)}" fill="${ink}"/>`;
    });
  } else if (rank === 1) {
    body += '<path d="M9 30c2-9 9-14 16-12-4 1-6 4-6 7 5-2 9 0 10 4-5-2-10 0-13 5Z" fill="#2e7d32"/>'
      + '<path d="M9 30c-2 4-2 8 1 10 1-4 3-6 6-7" fill="#c0262d"/><circle cx="22" cy="17" r="3.2" fill="#2e7d32"/>'
      + '<path d="M24.5 16.5 29 15l-4 3" fill="#d4a106"/><circle cx="22.6" cy="16.4" r=".8" fill="#fff"/>';
  } else {
    STICKS[rank].forEach(([x, y], i) => {
      const ink = (rank === 5 || rank === 7 || rank === 9) && i === (rank === 7 ? 0 : Math.floor(STICKS[rank].length / 2)) ? '#c0262d' : '#2e7d32';
      body += stick(x, y, ink);
    });
  }
  const out = svg(36, 48, body, 'face mahjong');
  cache.set(key, out);
  return out;
}

/** Return the SVG of an Okey card-game card ("R3", "B8", "Y1"). */
export function okeyCardSvg(token) {
  const key = `k${token}`;
  if (cache.has(key)) return cache.get(key);
  const ink = CARD_INK[token[0]];
  const m = CARD_MARK[token[0]];
  const n = token.slice(1);
  const body = '<rect x="1" y="1" width="48" height="68" rx="4.5" fill="#fffdf8" stroke="#b9b2a3" stroke-width=".9"/>'
    + `<rect x="4" y="4" width="42" height="62" rx="3" fill="none" stroke="${ink}" stroke-width="1.2" opacity=".5"/>`
    + strokeText(n, 25, 12, 26, ink, 3.6) + mark(m, 17, 45, 16, ink, token[0] === 'R') + colourLetter(token[0], 41, 56, 8, ink)
    + strokeText(n, 9, 6, 7, ink, 1.4);
  const out = svg(50, 70, body, 'face okeycard');
  cache.set(key, out);
  return out;
}

/** Return the SVG of a piece of a family: "okey", "card", "mahjong" or "okeycard". */
export function pieceSvg(family, token, joker = false) {
  if (family === 'card') return cardSvg(token);
  if (family === 'mahjong') return mahjongSvg(token);
  if (family === 'okeycard') return okeyCardSvg(token);
  return okeyTileSvg(token, joker);
}

/** Return a DOM element showing one piece, named for screen readers; data-token holds its
 * token. */
export function pieceEl(family, token, opts = {}) {
  const el = document.createElement('div');
  el.className = `piece ${family}${opts.small ? ' small' : ''}${opts.cls ? ' ' + opts.cls : ''}`;
  el.dataset.raw = '';
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', pieceName(family, token, opts));
  if (token) {
    el.dataset.token = token;
    el.append(svgNode(opts.faceDown ? backSvg(family) : pieceSvg(family, token, opts.joker)));
  } else {
    el.append(svgNode(backSvg(family)));
  }
  return el;
}

const parsed = new Map();

/** Return a fresh copy of the SVG element a piece's markup describes: the markup is parsed
 * once per distinct face and cloned after (parsing it for every piece of every board drawn
 * was most of a busy table's time in the browser). */
function svgNode(markup) {
  let node = parsed.get(markup);
  if (!node) {
    const template = document.createElement('template');
    template.innerHTML = markup;
    node = template.content;
    parsed.set(markup, node);
  }
  return document.importNode(node, true);
}
