// The offline game kept on the device (IndexedDB), so that it survives a reload and a restart
// of the browser: what session/device.py keeps (`kept`, JSON) and a summary for the page to
// list before the engine has loaded. One game at a time, under one key. Used by the worker
// (which writes after every change) and the page (which reads and forgets).

const DB = "ono99-offline";
const STORE = "games";
const KEY = "current";

/**
 * @typedef {object} Kept
 * @property {string} kept  the device's kept JSON
 * @property {{edition: string, players: number, people: string[], game: number, moves: number, phase: string, to_play: number | null}} summary
 */

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} act
 * @returns {Promise<any>}
 */
async function withStore(mode, act) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/** @param {Kept} value */
export function keep(value) {
  return withStore("readwrite", (s) => s.put(value, KEY));
}

/** @returns {Promise<Kept | undefined>} */
export function kept() {
  return withStore("readonly", (s) => s.get(KEY));
}

export function forget() {
  return withStore("readwrite", (s) => s.delete(KEY));
}
