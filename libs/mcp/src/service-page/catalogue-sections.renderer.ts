import { SafeHtml, html } from './html-template.util';
import { AuthView, EndpointView, PromptView, ResourceView, SkillView, ToolView } from './service-page.model';

/** @internal */
export function endpointsSection(endpoints: EndpointView[]): SafeHtml {
  const rows = endpoints.map(
    (e) => html`<tr><td class="method">${e.method}</td><td><code>${e.path}</code></td><td>${e.description}</td></tr>`,
  );
  return html`<section id="endpoints" class="panel"><h2>Endpoints</h2>
<table><thead><tr><th>Method</th><th>Path</th><th>What</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** @internal */
export function authSection(auth: AuthView): SafeHtml {
  const details = auth.details.map(([k, v]) => html`<dt>${k}</dt><dd><code>${v}</code></dd>`);
  return html`<section id="auth" class="panel"><h2>Authentication</h2>
<p class="scheme"><span class="badge ${auth.scheme === 'none' ? 'badge-warn' : 'badge-ok'}">${auth.scheme}</span></p>
<dl>${details}</dl>
${auth.hint && html`<p class="hint">${auth.hint}</p>`}
${auth.scopes.length > 0 && html`<p class="muted">Scopes in use: ${scopeList(auth.scopes)}</p>`}</section>`;
}

/** @internal */
export function toolsSection(tools: ToolView[]): SafeHtml {
  const cards = tools.map(
    (t) => html`<article class="card" id="tool-${t.name}" data-tool="${t.name}">
<header><h3><code>${t.name}</code></h3><span class="risk risk-${t.risk}" title="risk level">${t.risk}</span></header>
${t.title && html`<p class="card-title">${t.title}</p>`}
<p class="desc">${t.description}</p>
${t.sideEffects && html`<p class="effects"><strong>Side effects:</strong> ${t.sideEffects}</p>`}
${t.approval && html`<p class="effects"><strong>Approval:</strong> ${t.approval}</p>`}
<footer>${t.scopes.length ? html`<span class="muted">Scopes</span> ${scopeList(t.scopes)}` : html`<span class="muted">No scope required</span>`}
<button type="button" class="try" data-tool="${t.name}">Try in console</button></footer></article>`,
  );
  return html`<section id="tools"><h2>Tools <span class="count">${tools.length}</span></h2>
${tools.length ? html`<div class="cards">${cards}</div>` : html`<p class="muted">This server has no tools.</p>`}</section>`;
}

/** @internal */
export function promptsSection(prompts: PromptView[]): SafeHtml {
  const cards = prompts.map((p) => {
    const args = p.arguments.map(
      (a) =>
        html`<li><code>${a.name}</code>${a.required && html` <span class="req">required</span>`}${a.description && html` — ${a.description}`}</li>`,
    );
    return html`<article class="card" id="prompt-${p.name}"><header><h3><code>${p.name}</code></h3></header>
${p.title && html`<p class="card-title">${p.title}</p>`}${p.description && html`<p class="desc">${p.description}</p>`}
${args.length > 0 && html`<ul class="args">${args}</ul>`}
<footer>${p.scopes.length ? html`<span class="muted">Scopes</span> ${scopeList(p.scopes)}` : html`<span class="muted">No scope required</span>`}</footer></article>`;
  });
  return html`<section id="prompts"><h2>Prompts <span class="count">${prompts.length}</span></h2>
${prompts.length ? html`<div class="cards">${cards}</div>` : html`<p class="muted">This server has no prompts.</p>`}</section>`;
}

/** @internal */
export function resourcesSection(resources: ResourceView[], templates: ResourceView[]): SafeHtml {
  const row = (r: ResourceView, kind: string) =>
    html`<tr><td class="nowrap"><code>${r.uri}</code>${kind && html` <span class="tag">${kind}</span>`}</td><td>${r.title ?? r.name}${r.description && html`<div class="muted">${r.description}</div>`}</td><td class="nowrap">${r.mimeType && html`<code>${r.mimeType}</code>`}</td><td class="nowrap">${scopeList(r.scopes)}</td></tr>`;
  const rows = [...resources.map((r) => row(r, '')), ...templates.map((t) => row(t, 'template'))];
  return html`<section id="resources"><h2>Resources <span class="count">${resources.length + templates.length}</span></h2>
${rows.length ? html`<div class="panel flush"><table><thead><tr><th>URI</th><th>About</th><th>Type</th><th>Scopes</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p class="muted">This server has no resources.</p>`}</section>`;
}

/** Skills (folder or computed), ordered by URI: name, description, file count, scopes. @internal */
export function skillsSection(skills: SkillView[]): SafeHtml {
  const rows = skills.map(
    (s) =>
      html`<tr data-skill="${s.name}"><td class="nowrap"><code>${s.name}</code><div class="muted"><code>${s.uri}</code></div></td><td>${s.description}</td><td class="nowrap">${s.files} ${s.files === 1 ? 'file' : 'files'}</td><td class="nowrap">${scopeList(s.scopes)}</td></tr>`,
  );
  return html`<section id="skills"><h2>Skills <span class="count">${skills.length}</span></h2>
${rows.length ? html`<div class="panel flush"><table><thead><tr><th>Skill</th><th>Description</th><th>Files</th><th>Scopes</th></tr></thead><tbody>${rows}</tbody></table></div>` : html`<p class="muted">This server has no skills.</p>`}</section>`;
}

const scopeList = (scopes: string[]) => scopes.map((s) => html`<code class="scope">${s}</code> `);
