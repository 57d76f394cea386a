/**
 * The `/docs` page: Swagger UI over `/openapi.json`, every file from this
 * gateway. Paths are relative, so the page also works behind a path prefix.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SNS gateway API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="docs/swagger-ui.css">
<style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
</head>
<body>
<div id="reference"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

// validatorUrl: null — Swagger UI would otherwise send the document to validator.swagger.io for a badge.
export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#reference",
  validatorUrl: null,
  deepLinking: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  tryItOutEnabled: false,
});
`;

/**
 * Only this origin, for everything the page loads or sends; Swagger UI sets
 * inline styles and data: images (its icons), nothing else is needed.
 */
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
