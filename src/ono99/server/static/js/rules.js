// Which rule options matter for a table: the tokens and points options only for their match.

const MATCH_ONLY = {
  tokens: "tokens",
  target: "points",
  variant: "points",
  bust_total: "points",
};

export function optionApplies(name, match) {
  return !(name in MATCH_ONLY) || MATCH_ONLY[name] === match;
}
