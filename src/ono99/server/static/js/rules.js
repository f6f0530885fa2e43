// Which rule options matter for a table: the tokens and points options only for their match.

/** @type {Record<string, string>} */
const MATCH_ONLY = {
  tokens: "tokens",
  target: "points",
  variant: "points",
  bust_total: "points",
};

// An option's words in the catalog: the 1980 edition's Play 2 is the Double Play.
/** @param {string} name @param {string} [edition] */
export function optionKey(name, edition) {
  return name === "play2_deflects_play2" && edition === "1980" ? `option.${name}.doubleplay` : `option.${name}`;
}

/** @param {string} name @param {string} [match] */
export function optionApplies(name, match) {
  return !(name in MATCH_ONLY) || MATCH_ONLY[name] === match;
}
