// The HTTP API (docs/protocol.md). Errors come back as {error: {code, message, params}}.

/** @typedef {import("./types.js").CreateRequest} CreateRequest */
/** @typedef {import("./types.js").ErrorPayload} ErrorPayload */
/** @typedef {import("./types.js").Options} Options */
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
 * @returns {Promise<any>}  the answer's JSON (each use below names its type)
 */
async function call(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
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
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, data.error);
  return data;
}

export const api = {
  /** @returns {Promise<Options>} */
  options: () => call("GET", "/api/options"),
  /** @param {CreateRequest} body @returns {Promise<Seated>} */
  create: (body) => call("POST", "/api/tables", body),
  /** @param {QuickRequest} body @returns {Promise<Seated>} */
  quick: (body) => call("POST", "/api/quick", body),
  /** @param {string} code @param {string} name @returns {Promise<Seated>} */
  join: (code, name) => call("POST", `/api/tables/${code}/join`, { name }),
  /** @param {string} code @returns {Promise<TableInfo>} */
  table: (code) => call("GET", `/api/tables/${code}`),
  /** @param {string} code @param {number} game @returns {Promise<Replay>} */
  replay: (code, game) => call("GET", `/api/tables/${code}/games/${game}/replay`),
  /** @param {string} code @param {number} game @param {number} seat @param {"fair" | "known"} lens @returns {Promise<Review>} */
  review: (code, game, seat, lens) => call("GET", `/api/tables/${code}/games/${game}/review?seat=${seat}&lens=${lens}`),
  /** @param {string} code @param {number} game */
  recordUrl: (code, game) => `/api/tables/${code}/games/${game}/record`,
};

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
