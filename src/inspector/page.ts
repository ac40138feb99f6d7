import { createHash } from 'node:crypto';
import { CHART_SCRIPT } from './page-chart.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

const script = CHART_SCRIPT + PAGE_SCRIPT;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The page's Content-Security-Policy: only its own inline script and style (by hash) and requests to its own
 * origin. That makes "works with no internet" enforced by the browser, not just intended.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(PAGE_STYLE)}`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The whole inspector page: one self-contained HTML document (no external assets). */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-supervisor inspector</title>
<link rel="icon" href="data:,">
<style>${PAGE_STYLE}</style>
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
<script>${script}</script>
</body>
</html>
`;
