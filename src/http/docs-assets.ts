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
