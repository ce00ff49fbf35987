import { SafeHtml, html } from './html-template.util';
import { ServicePageModel, ToolView } from './service-page.model';
import { SERVICE_PAGE_SCRIPT_PATH, SERVICE_PAGE_STYLE_PATH } from './service-page.constants';
import {
  authSection,
  endpointsSection,
  promptsSection,
  resourcesSection,
  skillsSection,
  toolsSection,
} from './catalogue-sections.renderer';

/**
 * The whole page as one HTML string. Every value from the model goes through {@link html}, which
 * escapes it; the console reads what it needs from `data-` attributes, so no inline script is needed.
 * @internal
 */
export function renderServicePage(m: ServicePageModel): string {
  const heading = m.title ?? m.name;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${heading} ${m.version} · MCP server</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${SERVICE_PAGE_STYLE_PATH}">
<script src="${SERVICE_PAGE_SCRIPT_PATH}" defer></script>
</head>
<body>
<header class="hero"><div class="wrap">
<p class="eyebrow">MCP server</p>
<h1><span id="service-title">${heading}</span> <span class="version" id="service-version">v${m.version}</span></h1>
<p class="meta"><code id="service-name">${m.name}</code> · endpoint <code>${m.mcpPath}</code> · <span id="service-protocols">protocols ${protocolList(m.protocols)}</span></p>
${m.description && html`<p class="lead" id="service-description">${m.description}</p>`}
${m.instructions && html`<p class="instructions">${m.instructions}</p>`}
<nav><a href="#tools">Tools</a><a href="#prompts">Prompts</a><a href="#resources">Resources</a><a href="#skills">Skills</a><a href="#console">Console</a><a href="#endpoints">Endpoints</a><a href="#auth">Authentication</a></nav>
</div></header>
<main class="wrap">
<div class="columns">${endpointsSection(m.endpoints)}${authSection(m.auth)}</div>
${toolsSection(m.tools)}
${promptsSection(m.prompts)}
${resourcesSection(m.resources, m.templates)}
${skillsSection(m.skills)}
${consoleSection(m)}
</main>
<footer class="wrap foot">This page needs no authentication and shows the catalogue only; calls need a token. Switch it off with <code>MCP_SERVICE_PAGE=false</code> or <code>servicePage: false</code>.</footer>
</body>
</html>
`.value;
}

function consoleSection(m: ServicePageModel): SafeHtml {
  if (!m.tools.length)
    return html`<section id="console"><h2>Console</h2><p class="muted">There is no tool to call.</p></section>`;
  const options = m.tools.map(
    (t: ToolView) => html`<option value="${t.name}" data-example="${t.example}">${t.name} (${t.risk})</option>`,
  );
  return html`<section id="console"><h2>Console</h2>
<div class="panel">
<p class="muted">Calls a tool from this browser through <code>${m.mcpPath}</code>: <code>initialize</code>, <code>notifications/initialized</code>, <code>tools/call</code>, then <code>DELETE</code> of the session. The token stays in this page's memory: it is not stored and never put in a URL. Mutating tools really change data.</p>
<div id="console-form" data-endpoint="${m.mcpPath}" data-protocol-version="${m.protocolVersion}">
<label for="console-token">Bearer token</label>
<input id="console-token" class="secret" type="text" autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="paste an access token (without “Bearer”)">
<label for="console-tool">Tool</label>
<select id="console-tool">${options}</select>
<label for="console-args">Arguments (JSON)</label>
<textarea id="console-args" rows="6" spellcheck="false">${m.tools[0].example}</textarea>
<div class="actions"><button type="button" id="console-call">Call</button><span id="console-status" class="muted" role="status"></span></div>
</div>
<noscript><p class="hint">The console needs JavaScript.</p></noscript>
<pre id="console-output" class="output" aria-live="polite" hidden></pre>
</div></section>`;
}

/** `2026-07-28 (stateless) · 2025-11-25, 2025-06-18 (sessions)`: each era's revisions, newest first. */
function protocolList(protocols: ServicePageModel['protocols']): string {
  return protocols.map((p) => `${p.versions.join(', ')} (${p.era})`).join(' · ');
}
