// The HTTP API (docs/protocol.md). Errors come back as {error: {code, message, params}}.

/** @typedef {import("./types.js").CreateRequest} CreateRequest */
/** @typedef {import("./types.js").ErrorPayload} ErrorPayload */
/** @typedef {import("./types.js").Edition} Edition */
/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").Me} Me */
/** @typedef {import("./types.js").Options} Options */
/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").QuickRequest} QuickRequest */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").Review} Review */
/** @typedef {import("./types.js").Seated} Seated */
/** @typedef {import("./types.js").TableInfo} TableInfo */

export class ApiError extends Error {
  /**
   * @param {number} status  the HTTP status; 0 when the server could not be reached
   * @param {Partial<ErrorPayload>} [error]
   */
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "unknown";
    /** @type {Record<string, any>} */
    this.params = error?.params || {};
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]  sent as JSON
 * @param {boolean} [asPlayer]  send this browser's player key (when it has one)
 * @returns {Promise<any>}  the answer's JSON (each use below names its type)
 */
async function call(method, path, body, asPlayer = false) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
  const key = asPlayer ? playerKey() : null;
  if (key) init.headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, { code: "network" });
  }
  if (response.status === 204) return {};
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    // A key the server does not know (its database was reset, or the profile forgotten
    // elsewhere) is forgotten here too: the next try plays without a profile.
    if (key && data.error?.code === "no_player") savePlayerKey(null);
    throw new ApiError(response.status, data.error);
  }
  return data;
}

export const api = {
  /** @returns {Promise<Options>} */
  options: () => call("GET", "/api/options"),
  /** @param {CreateRequest} body @returns {Promise<Seated>} */
  create: (body) => call("POST", "/api/tables", body, true),
  /** @param {QuickRequest} body @returns {Promise<Seated>} */
  quick: (body) => call("POST", "/api/quick", body, true),
  /** @param {string} code @param {string} name @returns {Promise<Seated>} */
  join: (code, name) => call("POST", `/api/tables/${code}/join`, { name }, true),
  /** @param {string} code @returns {Promise<TableInfo>} */
  table: (code) => call("GET", `/api/tables/${code}`),
  /** @param {string} code @param {number} game @returns {Promise<Replay>} */
  replay: (code, game) => call("GET", `/api/tables/${code}/games/${game}/replay`),
  /** @param {string} code @param {number} game @param {number} seat @param {"fair" | "known"} lens @returns {Promise<Review>} */
  review: (code, game, seat, lens) => call("GET", `/api/tables/${code}/games/${game}/review?seat=${seat}&lens=${lens}`),
  /** @param {string} code @param {number} game */
  recordUrl: (code, game) => `/api/tables/${code}/games/${game}/record`,
  /** @param {string} name @returns {Promise<Me & {key: string}>} */
  register: (name) => call("POST", "/api/players", { name }),
  /** @returns {Promise<Me>} */
  me: () => call("GET", "/api/me", undefined, true),
  forget: () => call("DELETE", "/api/me", undefined, true),
  /** @returns {Promise<{code: string, seconds: number, link: string}>} */
  link: () => call("POST", "/api/me/link", undefined, true),
  /** @param {string} code @returns {Promise<Me & {key: string}>} */
  claim: (code) => call("POST", "/api/players/claim", { code }),
  /** @param {string} name @returns {Promise<Profile>} */
  profile: (name) => call("GET", `/api/players/${encodeURIComponent(name)}`),
  /** @param {Edition} edition @returns {Promise<Leaderboard>} */
  leaders: (edition) => call("GET", `/api/leaderboard?edition=${edition}`),
};

// The player key: this browser's hold on its profile (docs/protocol.md, "Players"). Kept
// here only; sent only to this server, and only with the requests that act as the player.
const PLAYER = "ono99:player";

export function playerKey() {
  try {
    return localStorage.getItem(PLAYER);
  } catch {
    return null;
  }
}

/** @param {string | null} key  none: this browser plays without a profile */
export function savePlayerKey(key) {
  try {
    if (key) localStorage.setItem(PLAYER, key);
    else localStorage.removeItem(PLAYER);
  } catch {
    /* private mode: no profile kept */
  }
}

// Seat tokens: kept per table in this browser, so the invite link brings you back too.
const KEY = (/** @type {string} */ code) => `ono99:seat:${code}`;

/** @param {string} code */
export function savedToken(code) {
  try {
    return localStorage.getItem(KEY(code));
  } catch {
    return null;
  }
}

/** @param {string} code @param {string | null | undefined} token  none: forget the seat */
export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(KEY(code), token);
    else localStorage.removeItem(KEY(code));
  } catch {
    /* private mode: the personal link still works */
  }
}
