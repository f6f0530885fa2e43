// ESLint for the browser client (plain ES modules, no build step) and its Node tests: run by
// ./test (`npx eslint src/ono99/server/static/js src/ono99/server/static/sw.js tests/js`), as
// `npm run lint`.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
  },
  {
    files: ["src/ono99/server/static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    // The service worker: a classic script, headed by the server with VERSION and SHELL.
    files: ["src/ono99/server/static/sw.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.serviceworker, VERSION: "readonly", SHELL: "readonly" },
    },
  },
  {
    files: ["tests/js/**/*.js", "tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
];
