/**
 * The page's style sheet, served as `/_mcp/service-page.css` (the CSP allows no inline style).
 * System fonts only: the page loads nothing from elsewhere.
 * @internal
 */
export const SERVICE_PAGE_CSS = `
:root{--bg:#f6f7f9;--panel:#fff;--text:#1d2330;--muted:#5d6677;--line:#e2e5ea;--accent:#2f5bd3;--accent-ink:#fff;--code:#eef1f6;
--ro:#1f7a4d;--ro-bg:#e3f4ea;--low:#245fb3;--low-bg:#e4eefb;--med:#8a5a00;--med-bg:#fdf0d5;--high:#b42318;--high-bg:#fde7e5;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#12151b;--panel:#1b2029;--text:#e6e9ef;--muted:#9aa3b2;--line:#2c3340;--accent:#7b9cff;--accent-ink:#0d1118;--code:#252c38;
--ro:#6fd39f;--ro-bg:#173326;--low:#8ab4ff;--low-bg:#1a2a45;--med:#f5c46b;--med-bg:#3a2c10;--high:#ff8f86;--high-bg:#45191a}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
code,pre,textarea,input,select{font-family:ui-monospace,"SFMono-Regular","DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:13px}
code{background:var(--code);border-radius:4px;padding:1px 5px;overflow-wrap:anywhere}
a{color:var(--accent)}
.wrap{max-width:1100px;margin:0 auto;padding:0 24px}
.hero{background:var(--panel);border-bottom:1px solid var(--line);padding:28px 0 0;margin-bottom:28px}
.eyebrow{margin:0;text-transform:uppercase;letter-spacing:.08em;font-size:12px;font-weight:600;color:var(--accent)}
h1{margin:4px 0 6px;font-size:30px;line-height:1.2}
.version{font-size:16px;font-weight:500;color:var(--muted);vertical-align:middle;border:1px solid var(--line);border-radius:999px;padding:2px 10px}
.meta{margin:0 0 10px;color:var(--muted)}
.lead{font-size:17px;margin:8px 0;max-width:75ch}
.instructions{color:var(--muted);margin:6px 0 0;max-width:75ch}
nav{display:flex;gap:22px;margin-top:18px;overflow-x:auto}
nav a{text-decoration:none;color:var(--muted);font-weight:500;padding:10px 0;border-bottom:2px solid transparent}
nav a:hover{color:var(--text);border-bottom-color:var(--accent)}
h2{font-size:19px;margin:0 0 12px;display:flex;align-items:center;gap:8px}
h3{font-size:15px;margin:0}
h3 code{background:none;padding:0;font-size:14px;font-weight:700}
section{margin:0 0 32px}
.count{font-size:12px;font-weight:600;background:var(--code);color:var(--muted);border-radius:999px;padding:1px 9px}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:18px 20px}
.panel.flush{padding:0;overflow-x:auto}
.columns{display:grid;grid-template-columns:minmax(0,1fr);gap:20px;margin-bottom:32px}
.columns section{margin:0}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:12px;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);font-weight:600}
tbody tr:last-child td{border-bottom:0}
.panel.flush th:first-child,.panel.flush td:first-child{padding-left:20px}
td.method{white-space:nowrap;color:var(--muted);font-size:13px}
td.nowrap,td.nowrap code{white-space:nowrap}
#endpoints td:nth-child(2) code{white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 14px;margin:12px 0}
dt{color:var(--muted)}
dd{margin:0;min-width:0}
.badge{display:inline-block;font-weight:600;border-radius:6px;padding:3px 10px}
.badge-ok{background:var(--ro-bg);color:var(--ro)}
.badge-warn{background:var(--high-bg);color:var(--high)}
.scheme{margin:0}
.hint{background:var(--med-bg);color:var(--med);border-radius:6px;padding:8px 12px}
.muted{color:var(--muted)}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:16px}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:16px 18px;display:flex;flex-direction:column;gap:6px}
.card header{display:flex;justify-content:space-between;align-items:center;gap:10px}
.card p{margin:0}
.card-title{font-weight:600}
.desc{color:var(--text)}
.effects{font-size:13px;color:var(--muted)}
.card footer{margin-top:auto;padding-top:10px;display:flex;flex-wrap:wrap;align-items:center;gap:6px;font-size:13px}
.args{margin:4px 0 0;padding-left:18px;font-size:14px}
.req{font-size:11px;font-weight:600;color:var(--med);background:var(--med-bg);border-radius:4px;padding:0 5px}
.tag{font-size:11px;font-weight:600;color:var(--low);background:var(--low-bg);border-radius:4px;padding:0 5px}
.scope{white-space:nowrap}
.risk{font-size:12px;font-weight:700;border-radius:999px;padding:2px 10px;white-space:nowrap}
.risk-read-only{background:var(--ro-bg);color:var(--ro)}
.risk-low{background:var(--low-bg);color:var(--low)}
.risk-medium{background:var(--med-bg);color:var(--med)}
.risk-high,.risk-unspecified{background:var(--high-bg);color:var(--high)}
button{font:inherit;font-weight:600;border-radius:6px;cursor:pointer}
.try{margin-left:auto;background:none;border:1px solid var(--line);color:var(--accent);padding:3px 10px;font-size:13px}
.try:hover{border-color:var(--accent)}
#console-form{display:grid;grid-template-columns:max-content 1fr;gap:10px 16px;align-items:center;margin-top:14px}
#console-form label{font-weight:600}
input,select,textarea{width:100%;padding:8px 10px;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--text)}
textarea{resize:vertical;min-height:110px}
label[for=console-args]{align-self:start;padding-top:8px}
.actions{grid-column:2;display:flex;align-items:center;gap:14px}
#console-call{background:var(--accent);color:var(--accent-ink);border:0;padding:8px 22px}
#console-call:disabled{opacity:.6;cursor:progress}
.output{margin:16px 0 0;background:var(--code);border-radius:8px;padding:14px 16px;white-space:pre-wrap;overflow-wrap:anywhere;max-height:480px;overflow:auto;border-left:4px solid var(--ro)}
.output.error{border-left-color:var(--high)}
.foot{color:var(--muted);font-size:13px;padding-bottom:32px}
@media (max-width:760px){td.nowrap,td.nowrap code{white-space:normal}#console-form{grid-template-columns:1fr}.actions{grid-column:1}}
.secret{-webkit-text-security:disc;font-family:ui-monospace,monospace}
`;
