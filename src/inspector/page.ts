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
  'detail.js',
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
 * The page for a run's token, with the statechart's SVG (laid out by the server). Every request must carry the
 * token, and a module's imports do not inherit its query, so an import map sends each module's plain path to the
 * path with the token.
 */
export function inspectorPage(token: string, chart = ''): InspectorPage {
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
  return { html: pageHtml(importMap, browserPath('page.js') + query, chart), csp };
}

function pageHtml(importMap: string, entry: string, chart: string): string {
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
  <span id="phase" data-testid="fleet-phase" data-phase="connecting">connecting</span>
  <span class="summary" id="summary" data-testid="summary">loading…</span>
  <span id="conn" data-testid="connection" data-state="connecting">connecting…</span>
</header>
<main>
  <div class="left">
    <div id="fleet" data-testid="fleet"></div>
    <div class="empty" id="empty" hidden>No servers configured.</div>
    <section id="detail" data-testid="detail" hidden>
      <h2><span id="detail-id" data-testid="detail-id"></span> <span class="dim" id="detail-info" data-testid="detail-info"></span></h2>
      <div class="panes">
        <div><h3>Recent calls</h3>
          <div class="scroll"><table id="calls" data-testid="detail-calls"><thead><tr><th>time</th><th>tool</th><th>ms</th><th>outcome</th><th>size</th></tr></thead><tbody id="calls-body"></tbody></table></div>
          <p class="none" id="calls-none">No calls yet.</p></div>
        <div><h3>Restarts</h3>
          <div class="scroll"><table id="restarts" data-testid="detail-restarts"><tbody id="restarts-body"></tbody></table></div>
          <p class="none" id="restarts-none">No restarts.</p></div>
        <div class="wide"><h3>Log tail</h3><pre id="logs" data-testid="detail-logs"></pre></div>
        <div><h3>Tools</h3><ul id="tools" data-testid="detail-tools"></ul></div>
        <div><h3>Instructions</h3><pre id="instructions" data-testid="detail-instructions"></pre></div>
      </div>
    </section>
  </div>
  <div class="right">
    <section class="chart" data-testid="chart-panel">
      <h2>Server machine <span class="dim" id="chart-for" data-testid="chart-for"></span></h2>
      ${chart}
      <p class="legend" data-testid="chart-legend"><span class="key now"></span>the state it is in
        <span class="key trail"></span>the states just before it <span class="key frame"></span>a group of states</p>
    </section>
    <section class="events">
      <h2>Timeline</h2>
      <table id="timeline" data-testid="timeline"><tbody id="timeline-body"></tbody></table>
    </section>
  </div>
</main>
</body>
</html>
`;
}
