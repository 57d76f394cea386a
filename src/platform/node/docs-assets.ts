import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type DocsAsset, type DocsAssetName, type DocsAssets, docsAsset } from "../../http/docs-assets.js";

/** Node: the `/docs` assets read from the installed `swagger-ui-dist` package, once, on first use. */
export function nodeDocsAssets(): DocsAssets {
  const require = createRequire(import.meta.url);
  const loaded = new Map<DocsAssetName, Promise<DocsAsset>>();
  return (name) => {
    let asset = loaded.get(name);
    if (!asset) {
      asset = readFile(require.resolve(`swagger-ui-dist/${name}`), "utf8").then((text) => docsAsset(name, text));
      // A failed read is not remembered, so a later request tries again.
      asset.catch(() => loaded.delete(name));
      loaded.set(name, asset);
    }
    return asset;
  };
}
