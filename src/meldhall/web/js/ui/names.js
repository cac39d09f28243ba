// The words a screen reader says for pieces and for the person a message speaks of: one
// naming function per piece family ("red 7", "false joker", "okey: blue 1", "5 of bamboo",
// "queen of hearts"), used by every renderer through pieceEl and the controls' labels.
import { t } from '../i18n.js';

/** Return the name of an okey-family tile (okey, okey-ladder, tile rummy). */
function okeyTileName(token, joker) {
  const m = /^([RKYB])(\d{1,2})/.exec(token);
  if (!m) return t(token[0] === 'S' ? 'piece.smiley' : 'piece.false_joker');
  const face = t(`piece.colour_${m[1]}`, { rank: m[2] });
  return joker ? t('piece.okey', { tile: face }) : face;
}

/** Return the name of a Remi card ("queen of hearts", "joker"). */
function cardName(token) {
  const m = /^(A|[2-9]|10|J|Q|K)([SHDC])/.exec(token);
  if (!m) return t('piece.card_joker');
  const rank = { A: 1, J: 11, Q: 12, K: 13 }[m[1]];
  return t(`piece.card_${m[2]}`, { rank: rank ? t(`piece.rank_${rank}`) : m[1] });
}

/** Return the name of a Sichuan tile ("5 of bamboo"). */
function mahjongName(token) {
  return t(`piece.mj_${token[1]}`, { rank: token[0] });
}

/** Return the name of an Okey card-game card ("red 3"). */
function okeyCardName(token) {
  return t(`piece.colour_${token[0]}`, { rank: token.slice(1) });
}

/** Return the spoken name of a piece of a family; a face-down piece is named as such. */
export function pieceName(family, token, { joker = false, faceDown = false } = {}) {
  if (!token || faceDown) return t(family === 'card' || family === 'okeycard' ? 'piece.card_back' : 'piece.back');
  if (family === 'card') return cardName(token);
  if (family === 'mahjong') return mahjongName(token);
  if (family === 'okeycard') return okeyCardName(token);
  return okeyTileName(token, joker);
}

/** Return the names of several pieces as one list ("red 2, red 3, red 4"). */
export function pieceNames(family, tokens, isJoker) {
  return tokens.filter(Boolean).map((tok) => pieceName(family, tok, { joker: isJoker?.(tok) })).join(', ');
}

/** Return the message vars of a seat as the one a message speaks of: its name, and `you`
 * when it is the reader's own seat (the message then takes its `_you` form). */
export function speaker(ctx, seat) {
  const n = ctx.nameOf(seat);
  return { name: t(n.key, n.vars), you: !ctx.spectator && seat === ctx.seat };
}
