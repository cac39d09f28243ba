// Sorting keys of the piece families: colour/suit and number/rank. The order of colours and
// suits is the one players expect on a rack; it is display only.
const OKEY_ORDER = { R: 'a', K: 'b', Y: 'c', B: 'd' };
const SUIT_ORDER = { S: 'a', H: 'b', C: 'c', D: 'd' };

/** Return {c, n, blank} for sorting a token of a family. */
export function sortKey(family, token) {
  if (family === 'card') {
    const m = /^(A|[2-9]|10|J|Q|K)([SHDC])/.exec(token);
    if (!m) return { c: 'z', n: 99, blank: true };
    return { c: SUIT_ORDER[m[2]], n: { A: 1, J: 11, Q: 12, K: 13 }[m[1]] || Number(m[1]) };
  }
  if (family === 'mahjong') return { c: token[1], n: Number(token[0]) };
  if (family === 'okeycard') return { c: token[0], n: Number(token.slice(1)) };
  const m = /^([RKYB])(\d+)/.exec(token);
  if (!m) return { c: 'z', n: 99, blank: true };
  return { c: OKEY_ORDER[m[1]], n: Number(m[2]) };
}
