// Numerals, letters, suit and colour marks as SVG paths: tiles and cards need no font.
// Glyphs are strokes on a 10 x 16 box (Latin) or a 16 x 16 box (Chinese numerals and 萬).

export const LATIN = {
  0: 'M5 0C1 0 0 4 0 8s1 8 5 8 5-4 5-8-1-8-5-8Z',
  1: 'M2 3.5 6 0v16',
  2: 'M.5 4C.5 1 3 0 5 0c3 0 4.5 2 4.5 4.5C9.5 8 0 12 0 16h10',
  3: 'M.5 2c1.5-1.7 8-2.5 8.5 2 0 3-3 3.5-5 3.5 3 0 6 1 6 4.5 0 4-8 5-10 2',
  4: 'M7.5 16V0L0 11h10',
  5: 'M9 0H1.5L.8 7c2.2-1.5 9.2-2 9.2 4 0 5-8 6-10 3',
  6: 'M8.5 1C4-1 0 3 0 10c0 4 2 6 5 6s5-2 5-5-2-5-5-5-5 2-5 4',
  7: 'M0 0h10L4 16',
  8: 'M5 7.5C1 7.5 1 0 5 0s4 7.5 0 7.5-5 8.5 0 8.5 5-8.5 0-8.5Z',
  9: 'M1.5 15c4.5 2 8.5-2 8.5-9 0-4-2-6-5-6S0 2 0 5s2 5 5 5 5-2 5-4',
  A: 'M0 16 5 0l5 16M2 10h6',
  J: 'M9 0v11c0 4-2 5-4 5-3 0-4.5-2-4.5-4',
  Q: 'M5 0C1 0 0 4 0 8s1 8 5 8 5-4 5-8-1-8-5-8ZM6 11l4 5',
  K: 'M1 0v16M10 0 1 10m3-3 6 9',
  R: 'M1 16V0h5c3 0 4 2 4 4s-1 4-4 4H1m4 0 5 8',
  Y: 'M0 0l5 8 5-8M5 8v8',
  B: 'M1 0h4.5C8 0 9 1.5 9 3.8S8 7.6 5.5 7.6H1M1 0v16h5c2.8 0 4-1.8 4-4.2S8.8 7.6 6 7.6',
};

export const HAN = {
  1: 'M1 8h14',
  2: 'M3 4h10M1 12h14',
  3: 'M3 2h10M4 8h8M1 14h14',
  4: 'M1.5 2v13m0-13h13v13m-13 0h13M6 2c0 5-1 7-3 8m7-8v7c0 1 1 1 3 1',
  5: 'M2 1.5h12m-6.5 0-2 13M3 7h9v7.5m-11 0h14',
  6: 'M8 .5 9 3M1.5 5h13M6 8l-4 7m8-7 4 7',
  7: 'M1 9l14-3M6 1v12c0 2 1 2 4 2h4v-3',
  8: 'M6 2c0 6-2 10-5 13m9-13c0 6 2 10 5 13',
  9: 'M1 5h9v8c0 2 1 2 3 2h2v-3M6 .5c0 7.5-2 11.5-5 14.5',
  wan: 'M1 3h14M5 .5V5m6-4.5V5M3.5 6h9v4h-9Zm0 2h9M8 6v4m-5.5 5.5v-4h11v3c0 1-1 1-2 1M8 10v3m-3 1 3-1.5 3 1.5',
};

// Filled marks on a 20 x 20 box: the four okey colours each have their own shape.
export const MARKS = {
  heart: 'M10 18C4 13 1 10 1 6.5 1 3.5 3.5 1.5 6 1.5c2 0 3.3 1 4 2.5.7-1.5 2-2.5 4-2.5 2.5 0 5 2 5 5 0 3.5-3 6.5-9 11.5Z',
  spade: 'M10 1c-5 5-9 8-9 11.5C1 15 3 16.5 5.2 16.5c1.6 0 2.8-.7 3.6-1.8L8 19h4l-.8-4.3c.8 1.1 2 1.8 3.6 1.8 2.2 0 4.2-1.5 4.2-4C19 9 15 6 10 1Z',
  diamond: 'M10 1 17.5 10 10 19 2.5 10Z',
  club: 'M10 1.5a4 4 0 0 0-3 6.6A4 4 0 1 0 9 14.8L8 19h4l-1-4.2a4 4 0 1 0 2-6.7 4 4 0 0 0-3-6.6Z',
  sun: 'M10 5.5a4.5 4.5 0 1 1 0 9 4.5 4.5 0 0 1 0-9ZM10 0v3.5M10 16.5V20M0 10h3.5M16.5 10H20M2.9 2.9l2.5 2.5M14.6 14.6l2.5 2.5M2.9 17.1l2.5-2.5M14.6 5.4l2.5-2.5',
  drop: 'M10 1C7 6 3.5 9.5 3.5 13a6.5 6.5 0 0 0 13 0C16.5 9.5 13 6 10 1Z',
  star: 'M10 1l2.6 6 6.4.6-4.9 4.3 1.5 6.3L10 15l-5.6 3.2 1.5-6.3L1 7.6 7.4 7Z',
  clover: 'M10 10C7 4 2.5 4.5 2.5 8S7 12 10 10Zm0 0c6-3 5.5-7.5 2-7.5S8 7 10 10Zm0 0c3 6 7.5 5.5 7.5 2S13 8 10 10Zm0 0c-6 3-5.5 7.5-2 7.5s2-4.5 2-7.5Z',
};

/** Return the SVG path element of a text drawn with stroke glyphs, centred at (cx, top). */
export function strokeText(text, cx, top, height, colour, weight = 2.2) {
  const chars = String(text).split('');
  const scale = height / 16;
  const advance = 12.5 * scale * (chars.length > 1 ? 0.82 : 1);
  const glyphW = 10 * scale * (chars.length > 1 ? 0.82 : 1);
  const total = advance * (chars.length - 1) + glyphW;
  let x = cx - total / 2;
  const parts = chars.map((ch) => {
    const sx = glyphW / 10;
    const g = `<path transform="translate(${x.toFixed(2)} ${top}) scale(${sx.toFixed(3)} ${scale.toFixed(3)})" d="${LATIN[ch] || ''}"/>`;
    x += advance;
    return g;
  });
  return `<g fill="none" stroke="${colour}" stroke-width="${(weight / scale).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round">${parts.join('')}</g>`;
}

/** Return an SVG group drawing a mark (see MARKS) in a box of size s at (x, y); a hollow mark
 * is drawn as an outline (red's heart, so that red and black differ in pattern, not only in
 * hue). */
export function mark(name, x, y, s, colour, hollow = false) {
  const k = s / 20;
  const stroke = name === 'sun' || hollow ? ` stroke="${colour}" stroke-width="${hollow ? 3 : 2.2}" stroke-linecap="round" stroke-linejoin="round"` : '';
  return `<path class="mark" transform="translate(${x} ${y}) scale(${k.toFixed(3)})" fill="${hollow ? 'none' : colour}"${stroke} d="${MARKS[name]}"/>`;
}

/** Return the colour-blind letter of a colour (R, K, Y, B), shown only when the setting is on. */
export function colourLetter(letter, cx, top, height, colour) {
  return `<g class="cb">${strokeText(letter, cx, top, height, colour, 1.5)}</g>`;
}

/** Return an SVG group drawing a Chinese numeral or 萬 in a box of size s at (x, y). */
export function han(key, x, y, s, colour, weight = 1.6) {
  const k = s / 16;
  return `<path transform="translate(${x} ${y}) scale(${k.toFixed(3)})" fill="none" stroke="${colour}" stroke-width="${(weight / k).toFixed(2)}" stroke-linecap="round" stroke-linejoin="round" d="${HAN[key]}"/>`;
}
