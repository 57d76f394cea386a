/** `import gzipped from "pkg/file?gzip-base64"`: a packaged file gzipped, as base64, bundled by scripts/worker-bundle.mjs. */
declare module "*?gzip-base64" {
  const gzippedBase64: string;
  export default gzippedBase64;
}
