import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type DocsAsset, type DocsAssetName, type DocsAssets } from "./http/docs-assets.js";

const CONTENT_TYPES: Record<DocsAssetName, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

// The source maps are not shipped: without this line a browser's developer tools would ask for them.
const SOURCE_MAP_COMMENT = /\n?\/[/*]# sourceMappingURL=\S+(?: \*\/|\*\/)?\s*$/;

/** Node: the `/docs` assets read from the installed `swagger-ui-dist` package, once, on first use. */
export function nodeDocsAssets(): DocsAssets {
  const require = createRequire(import.meta.url);
  const loaded = new Map<DocsAssetName, Promise<DocsAsset>>();
  return (name) => {
    let asset = loaded.get(name);
    if (!asset) {
      asset = readFile(require.resolve(`swagger-ui-dist/${name}`), "utf8").then((text) => ({
        body: text.replace(SOURCE_MAP_COMMENT, "\n"),
        contentType: CONTENT_TYPES[name],
      }));
      // A failed read is not remembered, so a later request tries again.
      asset.catch(() => loaded.delete(name));
      loaded.set(name, asset);
    }
    return asset;
  };
}
