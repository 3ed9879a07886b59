// The replay page's own strings, through Django's JavaScript catalogue (djangojs.po) as i18n.js takes the game
// page's. They are formatted with i18n.js's t() and tParts(), which use a string that is none of their keys as the
// template itself: `{name}` is replaced by params.name, and a node stays a node.
const gettext = window.gettext || ((text) => text);
const ngettext = window.ngettext || ((singular, plural, n) => (n === 1 ? singular : plural));

export const TEXT = {
  start: gettext("The start: the empty board"),
  step: gettext("Move {n} of {total}"),
  start_of: gettext("Start (0 of {total})"),
  turn: gettext("turn {n}"),
  failed: gettext("This move could not be loaded. Check the connection and step again."),
  stolen_card: gettext("{who} stole 1 {resource} from {victim}"),
  drew_development: gettext("{who} drew: {card}"),
  cards_hidden: (n) => ngettext("1 card in hand", "{n} cards in hand", n),
  development_hidden: (n) => ngettext("1 development card", "{n} development cards", n),
  hand_of: gettext("Hand of {who}"),
  development_held: gettext("Development cards"),
  development_none: gettext("No development card"),
  development_new: gettext("{card} (new)"),
  played: gettext("Played: {cards}"),
  winner: gettext("{who} won"),
  winner_tag: gettext("winner"),
  to_move: gettext("{who} to move"),
  dice: gettext("Dice: {a} + {b} = {sum}"),
  step_button: gettext("Show move {n}"),
};

// A string of TEXT that picks its plural from `n`.
export function plural(entry, n) {
  return entry(n).replace("{n}", String(n));
}
