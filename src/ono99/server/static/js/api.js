// The HTTP API (docs/protocol.md). Errors come back as {error: {code, message, params}}.

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "unknown";
    this.params = error?.params || {};
  }
}

async function call(method, path, body) {
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
  options: () => call("GET", "/api/options"),
  create: (body) => call("POST", "/api/tables", body),
  join: (code, name) => call("POST", `/api/tables/${code}/join`, { name }),
  table: (code) => call("GET", `/api/tables/${code}`),
  replay: (code, game) => call("GET", `/api/tables/${code}/games/${game}/replay`),
  review: (code, game, seat, lens) => call("GET", `/api/tables/${code}/games/${game}/review?seat=${seat}&lens=${lens}`),
  recordUrl: (code, game) => `/api/tables/${code}/games/${game}/record`,
};

// Seat tokens: kept per table in this browser, so the invite link brings you back too.
const KEY = (code) => `ono99:seat:${code}`;

export function savedToken(code) {
  try {
    return localStorage.getItem(KEY(code));
  } catch {
    return null;
  }
}

export function saveToken(code, token) {
  try {
    if (token) localStorage.setItem(KEY(code), token);
    else localStorage.removeItem(KEY(code));
  } catch {
    /* private mode: the personal link still works */
  }
}
