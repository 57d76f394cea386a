/**
 * The resident-memory statement the child-process tests hold the gateway to,
 * per Node line. Node 24's V8 keeps a larger resident baseline than Node 20's
 * and 22's under the same `npm start` flags: the same bursts peaked 10–53 MB
 * higher (158–203 MB against 150, 184–186 against 170, measured with `.ci/run`);
 * over two later `.ci/run`s, test/process/ file by file, 19.6–40.1 MB above
 * Node 20.20 (median 28). Its statement is 70 MB above, 17 MB over the worst
 * difference seen. docs/performance.md, Memory, says the same.
 */
const MiB = 1024 * 1024;
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);

/** Extra resident memory allowed on Node 24 and later. */
export const NODE_24_ALLOWANCE = NODE_MAJOR >= 24 ? 70 * MiB : 0;

/** `mb` megabytes (the Node 22 statement) plus this Node line's allowance, in bytes. */
export function rssStatement(mb: number): number {
  return mb * MiB + NODE_24_ALLOWANCE;
}
