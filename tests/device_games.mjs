// Plays offline games in real Pyodide, under Node (tests/session/test_device.py): the npm
// package the browser's worker loads, this project's package zipped as the server serves it
// (server/offline.py), and device_games.py driving session/device.py as the page would.
// Usage: node tests/device_games.mjs PACKAGE.zip DRIVER.py COUNT SEED  → JSON lines.
import { readFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [zipPath, driverPath, count, seed] = process.argv.slice(2);
const py = await loadPyodide({ packages: [] });
py.unpackArchive(new Uint8Array(readFileSync(zipPath)), "zip", { extractDir: "/home/pyodide/ono99-app" });
py.runPython('import sys; sys.path.insert(0, "/home/pyodide/ono99-app")');
const scope = py.toPy({ __name__: "device_games" }); // not __main__: it only defines
py.runPython(readFileSync(driverPath, "utf8"), { globals: scope });
process.stdout.write(scope.get("main")(Number(count), Number(seed)));
