/**
 * The files of the `/docs` page that come from a package (Swagger UI's
 * bundle and style sheet). The app never reads files itself: the platform
 * hands them over (from node_modules on Node, from the bundle elsewhere).
 */
export const DOCS_ASSET_NAMES = ["swagger-ui-bundle.js", "swagger-ui.css"] as const;
export type DocsAssetName = (typeof DOCS_ASSET_NAMES)[number];

export interface DocsAsset {
  readonly body: string;
  readonly contentType: string;
}

/** Gives the bytes of one asset, or undefined when this platform does not ship it. */
export type DocsAssets = (name: DocsAssetName) => Promise<DocsAsset | undefined>;

export const isDocsAssetName = (name: string): name is DocsAssetName =>
  (DOCS_ASSET_NAMES as readonly string[]).includes(name);

const CONTENT_TYPES: Record<DocsAssetName, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

// The source maps are not shipped: without this line a browser's developer tools would ask for them.
const SOURCE_MAP_COMMENT = /\n?\/[/*]# sourceMappingURL=\S+(?: \*\/|\*\/)?\s*$/;

/** One asset as served, from the text of the packaged file. */
export const docsAsset = (name: DocsAssetName, text: string): DocsAsset => ({
  body: text.replace(SOURCE_MAP_COMMENT, "\n"),
  contentType: CONTENT_TYPES[name],
});
