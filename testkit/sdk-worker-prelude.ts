/*
 * The start of every SDK worker thread's source (plain CommonJS: a function's
 * toString would carry the test transformer's rewrites into the worker). It
 * defines `parentPort`, `workerData`, `path`, `pathToFileURL`, `web3` (the very
 * web3.js instance the SDK's ESM build imports: web3.js has no "exports" map),
 * `sdkEntry` (that ESM build) and `connectionTo(url)`.
 */
export const SDK_WORKER_PRELUDE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const packageRequire = createRequire(workerData.packageJson);
const web3 = packageRequire("@solana/web3.js");
const sdkEntry = path.join(path.dirname(packageRequire.resolve("@bonfida/spl-name-service")), "..", "esm", "index.mjs");
const connections = new Map();

// findProgramAddressSync is a pure function of its seeds and program. The SDK
// derives the same keys several times per call (a domain key directly, then as
// the parent of its record keys); caching it changes no outcome and saves
// most of the oracle's curve arithmetic.
const findProgramAddressSync = web3.PublicKey.findProgramAddressSync;
const derived = new Map();
web3.PublicKey.findProgramAddressSync = function (seeds, programId) {
  const key = seeds.map((seed) => Buffer.from(seed).toString("hex")).join(".") + "@" + programId.toBase58();
  let found = derived.get(key);
  if (!found) {
    found = findProgramAddressSync.call(this, seeds, programId);
    derived.set(key, found);
  }
  return [found[0], found[1]];
};

function connectionTo(url) {
  let connection = connections.get(url);
  if (!connection) {
    connection = new web3.Connection(url, "processed");
    connections.set(url, connection);
  }
  return connection;
}
`;
