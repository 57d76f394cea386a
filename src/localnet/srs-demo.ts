/**
 * The demo ledger's SRS names (fixtures/demo.json `srsNames`) as `npm run
 * demo -- --srs` shows them: what each shows, its request, and the status it
 * is answered with (test/gateway/srs-demo.test.ts sends each).
 */
export const SRS_DEMO_EXAMPLES: readonly (readonly [what: string, path: string, status: number])[] = [
  ["SRS: a name owned by a key (expires in 2100)", "/resolve/plain.sol", 200],
  ["SRS: a tokenized name → holder of its Token-2022 mint", "/resolve/bonfida.sol", 200],
  ["SRS: an expired name (410)", "/resolve/expired.sol", 410],
  ["SRS: a name that never expires (expiry 0)", "/resolve/v1-sol.sol", 200],
  ["SRS: a name whose SRS and SNS owners differ: /resolve answers the SRS owner", "/resolve/v2-sol.sol", 200],
  ["the same name cross-checked (409 SRS and SNS resolution mismatch)", "/safe-resolve/v2-sol.sol", 409],
  ["cross-checked, both registries agree", "/safe-resolve/bonfida.sol", 200],
  ["cross-checked, SRS only (404 from the name service)", "/safe-resolve/srs-only.sol", 404],
];
