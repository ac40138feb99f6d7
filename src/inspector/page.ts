import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PAGE_STYLE } from './page-style.js';

/**
 * The page's browser code: plain ES modules in ./browser/ beside this file (in src/ and in dist/ alike), which
 * the typechecker and the linter see as they see every other source file. `page.js` is the entry.
 */
export const BROWSER_MODULES = [
  'page.js',
  'card.js',
  'chart.js',
  'chart-layout.js',
  'dom.js',
  'format.js',
] as const;

/** The path the page requests a module at. */
export const browserPath = (name: string): string => `/browser/${name}`;

/** Where the modules are: beside this file, so the same code serves them from src/ and from dist/. */
export const BROWSER_DIR = new URL('./browser/', import.meta.url);

/**
 * The modules' bytes by their path, read once when the inspector starts, or the file that could not be read (a
 * broken install).
 */
export async function loadBrowserModules(
  dir = BROWSER_DIR,
): Promise<Map<string, Buffer> | { missing: string }> {
  const files = new Map<string, Buffer>();
  for (const name of BROWSER_MODULES) {
    const file = new URL(name, dir);
    try {
      files.set(browserPath(name), await readFile(file));
    } catch {
      return { missing: fileURLToPath(file) };
    }
  }
  return files;
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page as served to one run: its HTML and the Content-Security-Policy that goes with it. */
export interface InspectorPage {
  html: string;
  csp: string;
}

/**
 * The page for a run's token. Every request must carry the token, and a module's imports do not inherit its
 * query, so an import map sends each module's plain path to the path with the token.
 */
export function inspectorPage(token: string): InspectorPage {
  const query = `?token=${encodeURIComponent(token)}`;
  const imports = Object.fromEntries(BROWSER_MODULES.map((n) => [browserPath(n), browserPath(n) + query]));
  const importMap = JSON.stringify({ imports });
  // Only this origin's scripts, the import map and the stylesheet (by hash), and requests to this origin: "works
  // with no internet" is enforced by the browser, not just intended.
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${sha256(importMap)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html: pageHtml(importMap, browserPath('page.js') + query), csp };
}

function pageHtml(importMap: string, entry: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-supervisor inspector</title>
<link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style>
<script type="importmap">${importMap}</script>
<script type="module" src="${entry}"></script>
</head>
<body>
<header>
  <h1>mcp-supervisor</h1>
  <span class="summary" id="summary" data-testid="summary">loading…</span>
  <span id="conn" data-testid="connection" data-state="connecting">connecting…</span>
</header>
<main>
  <div>
    <div id="fleet" data-testid="fleet"></div>
    <div class="empty" id="empty" hidden>No servers configured.</div>
  </div>
  <aside>
    <h2>Timeline</h2>
    <table id="timeline" data-testid="timeline"><tbody id="timeline-body"></tbody></table>
  </aside>
</main>
</body>
</html>
`;
}
