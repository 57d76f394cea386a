/** `import text from "pkg/file?text"`: a packaged file's contents, bundled by scripts/worker-bundle.mjs. */
declare module "*?text" {
  const text: string;
  export default text;
}
