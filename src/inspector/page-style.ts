// The inspector's stylesheet. Only system font stacks: the page must render the same with no network.

/** State name → colour; the script reads the same names as CSS classes (`st-<state>`). */
export const STATE_COLOURS: Record<string, string> = {
  spawning: '#4c8dff',
  handshaking: '#38b6d8',
  ready: '#2fb36d',
  wedged: '#f08a24',
  stopping: '#a17cf0',
  backoff: '#e0b020',
  failed: '#e5484d',
  stopped: '#8a93a3',
  untrusted: '#d35bd6',
};

const stateRules = Object.entries(STATE_COLOURS)
  .map(([s, c]) => `.st-${s}{--st:${c}}`)
  .join('\n');

/** The stylesheet text, inlined into the page. */
export const PAGE_STYLE = `
:root{--bg:#0f1218;--panel:#171b23;--panel2:#1d222c;--line:#2a303c;--fg:#e3e7ee;--dim:#8b93a3;--st:#8a93a3;
  color-scheme:dark;font:13px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg)}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"Liberation Mono",monospace}
header{display:flex;align-items:center;gap:16px;padding:10px 18px;border-bottom:1px solid var(--line);background:var(--panel)}
header h1{font-size:15px;margin:0;font-weight:600;letter-spacing:.2px}
header .summary{color:var(--dim)}
#conn{margin-left:auto;display:flex;align-items:center;gap:6px;color:var(--dim)}
#conn::before{content:"";width:8px;height:8px;border-radius:50%;background:#e5484d}
#conn[data-state="live"]::before{background:#2fb36d}
#conn[data-state="connecting"]::before{background:#e0b020}
main{display:grid;grid-template-columns:minmax(0,1fr) 400px;gap:16px;padding:16px 18px;align-items:start}
#fleet{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px;align-items:start}
.empty{color:var(--dim);padding:24px}
.card{background:var(--panel);border:1px solid var(--line);border-top:3px solid var(--st);border-radius:8px;overflow:hidden}
.card .head{display:flex;align-items:center;gap:10px;padding:10px 12px}
.card .id{font-weight:600;font-size:14px}
.pill{margin-left:auto;padding:2px 9px;border-radius:999px;font-weight:600;font-size:12px;color:#0f1218;background:var(--st)}
.card dl{display:grid;grid-template-columns:auto 1fr auto 1fr;gap:3px 10px;margin:0;padding:0 12px 10px}
.card dt{color:var(--dim)}
.card dd{margin:0;font-variant-numeric:tabular-nums}
.lastexit{margin:0 12px 10px;padding:8px 10px;background:var(--panel2);border:1px solid var(--line);border-radius:6px}
.lastexit[hidden]{display:none}
.lastexit .what{font-weight:600}
.lastexit .reason{color:var(--dim)}
.lastexit pre{margin:6px 0 0;max-height:9em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:11px;color:#f3b3b5}
.chart{border-top:1px solid var(--line);padding:8px 8px 4px;background:var(--panel2)}
.chart svg{width:100%;height:auto;display:block}
.chart .n rect{fill:#20252f;stroke:#394152;stroke-width:1}
.chart .n.compound>rect{fill:rgba(255,255,255,.02);stroke-dasharray:4 3}
.chart .n text.k{fill:var(--fg);font-size:11px;font-weight:600}
.chart .n text.t{fill:var(--dim);font-size:10px}
.chart .n text.m{fill:var(--dim);font-size:9px}
.chart .n[data-active="true"]>rect{fill:var(--st);stroke:var(--st);stroke-width:2}
.chart .n[data-active="true"]>text.k,.chart .n[data-active="true"]>text.t,.chart .n[data-active="true"]>text.m{fill:#0f1218}
.chart .n[data-contains-active="true"]>rect{stroke:var(--st);stroke-width:1.5}
aside{background:var(--panel);border:1px solid var(--line);border-radius:8px;position:sticky;top:16px;max-height:calc(100vh - 90px);overflow:auto}
aside h2{font-size:13px;margin:0;padding:10px 12px;border-bottom:1px solid var(--line);position:sticky;top:0;background:var(--panel)}
#timeline{width:100%;border-collapse:collapse;font-size:12px}
#timeline td{padding:4px 8px;border-bottom:1px solid var(--line);vertical-align:top}
#timeline td.time{color:var(--dim);white-space:nowrap;font-variant-numeric:tabular-nums}
#timeline td.srv{font-weight:600;white-space:nowrap}
#timeline .to{color:var(--st);font-weight:600}
#timeline tr.exit td.what,#timeline tr.refused td.what,#timeline tr.escalated td.what{color:#f3b3b5}
@media (max-width:1000px){main{grid-template-columns:1fr}aside{position:static;max-height:none}}
${stateRules}
`;
