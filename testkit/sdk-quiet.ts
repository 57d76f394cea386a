import { createRequire } from "node:module";

/*
 * Imported before the official SDK, in processes that load it directly (the bench's baseline and routes
 * section; the SDK worker threads of the tests do the same in their prelude, testkit/sdk-worker.ts): the
 * SDK's bigint-buffer (under @solana/buffer-layout-utils) runs its pure-JS code, as its install script (a
 * native build) is denied in package.json's allowScripts, and says so when it loads. Loaded once here
 * without that notice, it is the cached module the SDK then gets.
 */
const projectRequire = createRequire(import.meta.url);
const warn = console.warn;
console.warn = () => {};
try {
  createRequire(projectRequire.resolve("@solana/buffer-layout-utils"))("bigint-buffer");
} finally {
  console.warn = warn;
}
