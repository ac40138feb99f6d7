// The inspector's stylesheet. Only system font stacks: the page must render the same with no network.

/** State name → colour; the script reads the same names as CSS classes (`st-<state>`). */
export const STATE_COLOURS: Record<string, string> = {
  spawning: '#4c8dff',
  approving: '#d66bd1',
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
.dim{color:var(--dim);font-weight:400}
header{display:flex;align-items:center;gap:14px;padding:8px 16px;border-bottom:1px solid var(--line);background:var(--panel)}
header h1{font-size:15px;margin:0;font-weight:600;letter-spacing:.2px}
header .summary{color:var(--dim)}
#phase{padding:1px 9px;border-radius:999px;font-weight:600;font-size:12px;background:#2a303c;color:var(--fg)}
#phase[data-phase="running"]{background:#2fb36d;color:#0f1218}
#phase[data-phase="stopping"]{background:#a17cf0;color:#0f1218}
#phase[data-phase="stopped"]{background:#8a93a3;color:#0f1218}
#phase[data-phase="lost"]{background:#e5484d;color:#0f1218}
#conn{margin-left:auto;display:flex;align-items:center;gap:6px;color:var(--dim)}
#conn::before{content:"";width:8px;height:8px;border-radius:50%;background:#e5484d}
#conn[data-state="live"]::before{background:#2fb36d}
#conn[data-state="connecting"]::before{background:#e0b020}
#conn[data-state="closed"]::before{background:#8a93a3}
body[data-stale="true"] #fleet,body[data-stale="true"] #detail{opacity:.55}
main{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:14px;padding:12px 16px;align-items:start}
h2{font-size:13px;margin:0 0 8px;font-weight:600}
h3{font-size:12px;margin:0 0 4px;color:var(--dim);font-weight:600;text-transform:uppercase;letter-spacing:.4px}
#fleet{display:grid;grid-template-columns:repeat(auto-fill,minmax(168px,1fr));gap:6px}
.empty{color:var(--dim);padding:24px}
.card{background:var(--panel);border:1px solid var(--line);border-left:3px solid var(--st);border-radius:6px;padding:4px 8px;
  cursor:pointer;min-width:0;font-size:12px}
.card:hover{background:var(--panel2)}
.card[aria-selected="true"]{outline:2px solid var(--st);outline-offset:-1px;background:var(--panel2)}
.card .head{display:flex;align-items:center;gap:6px;min-width:0}
.card .id{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.pill{margin-left:auto;padding:0 7px;border-radius:999px;font-weight:600;font-size:11px;color:#0f1218;background:var(--st);flex:none}
.card .nums{display:grid;grid-template-columns:1fr auto;column-gap:8px;color:var(--dim);font-variant-numeric:tabular-nums;white-space:nowrap}
.card .nums>span:nth-child(even){text-align:right}
.card .nums .v{color:var(--fg);font-weight:500}
.card .exit{color:#f3b3b5;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-height:1.45em}
#detail{margin-top:12px;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
#detail[hidden]{display:none}
#detail .panes{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:10px 14px}
#detail .wide{grid-column:1/-1}
#detail .scroll{overflow-x:auto;min-width:0}
#detail table{width:100%;border-collapse:collapse;font-size:12px}
#detail th{text-align:left;color:var(--dim);font-weight:500}
#detail td,#detail th{padding:2px 6px 2px 0;border-bottom:1px solid var(--line);white-space:nowrap}
#detail td.num{text-align:right;font-variant-numeric:tabular-nums}
#detail td.bad{color:#f3b3b5}
#detail td.good{color:#7fd6a4}
#detail .none{color:var(--dim);margin:2px 0}
#detail .none[hidden]{display:none}
#logs,#instructions{margin:0;max-height:14em;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:11px;
  background:var(--panel2);border:1px solid var(--line);border-radius:4px;padding:6px 8px}
#logs .log{color:#9fc4ff}
#tools{margin:0;padding-left:16px;max-height:14em;overflow:auto;font-size:12px}
#tools .desc{color:var(--dim)}
.right{display:flex;flex-direction:column;gap:14px;min-width:0}
.right>section{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:10px 12px}
.chart svg{width:100%;height:auto;display:block;font:12px system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
.chart .n rect{fill:#20252f;stroke:#394152;stroke-width:1}
.chart .n.frame>rect{fill:rgba(255,255,255,.02);stroke-dasharray:4 3}
.chart .n text{fill:var(--fg);font-weight:600}
.chart .n.frame>text{fill:var(--dim);font-size:11px}
.chart .e path{fill:none;stroke:#5b6475;stroke-width:1.2}
.chart .e text{fill:#9aa3b3;font-size:10px}
.chart .e .port,.chart .start circle,.chart marker path{fill:#5b6475}
.chart .start path{fill:none;stroke:#5b6475;stroke-width:1.2}
.chart .n[data-trail]>rect{stroke:var(--st);stroke-width:1.5;stroke-dasharray:3 2}
.chart .n[data-active="true"]>rect{fill:var(--st);stroke:var(--st);stroke-width:2;stroke-dasharray:none}
.chart .n.frame[data-active="true"]>rect{fill:rgba(255,255,255,.06)}
.chart .n.state[data-active="true"]>text{fill:#0f1218}
.legend{margin:6px 0 0;color:var(--dim);font-size:11px;display:flex;flex-wrap:wrap;align-items:center;gap:4px 6px}
.legend .key{display:inline-block;width:14px;height:9px;border-radius:2px;border:1.5px solid #5b6475;margin-left:6px}
.legend .key.now{background:var(--st);border-color:var(--st)}
.legend .key.trail{border-style:dashed;border-color:var(--st)}
.legend .key.frame{border-style:dashed;border-color:#394152;background:rgba(255,255,255,.02)}
.chart .n[data-contains-active="true"]>rect{stroke:var(--st);stroke-width:1.5}
.events{max-height:calc(100vh - 120px);overflow:auto}
#timeline{width:100%;border-collapse:collapse;font-size:12px}
#timeline td{padding:3px 8px 3px 0;border-bottom:1px solid var(--line);vertical-align:top}
#timeline td.time{color:var(--dim);white-space:nowrap;font-variant-numeric:tabular-nums}
#timeline td.srv{font-weight:600;white-space:nowrap}
.to{color:var(--st);font-weight:600}
#timeline tr.exit td.what,#timeline tr.refused td.what,#timeline tr.escalated td.what,#restarts tr.exit td{color:#f3b3b5}
@media (max-width:1100px){main{grid-template-columns:1fr}}
${stateRules}
`;
