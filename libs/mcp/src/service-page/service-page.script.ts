/**
 * The console's browser script, served as `/_mcp/service-page.js` (the CSP allows no inline script).
 * Plain JavaScript for current browsers; it reads the endpoint and the tool examples from `data-`
 * attributes, keeps the token in memory only (a field without `name`, never stored, never in a URL)
 * and talks MCP over `fetch`: initialize, notifications/initialized, tools/call, DELETE.
 * @internal
 */
export const SERVICE_PAGE_SCRIPT = String.raw`'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const form = $('console-form');
  if (!form) return;
  const endpoint = form.dataset.endpoint;
  const latest = form.dataset.protocolVersion;
  const token = $('console-token'), tool = $('console-tool'), args = $('console-args');
  const button = $('console-call'), status = $('console-status'), output = $('console-output');
  let nextId = 1;

  class CallError extends Error {}

  const prefill = () => { args.value = tool.selectedOptions[0]?.dataset.example || '{}'; };
  tool.addEventListener('change', prefill);
  for (const b of document.querySelectorAll('button.try')) {
    b.addEventListener('click', () => {
      tool.value = b.dataset.tool;
      prefill();
      $('console').scrollIntoView({ behavior: 'smooth', block: 'start' });
      (token.value ? args : token).focus({ preventScroll: true });
    });
  }

  const show = (text, failed) => {
    output.hidden = false;
    output.classList.toggle('error', failed);
    output.textContent = text;
  };

  const headers = (session, version) => {
    const h = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const t = token.value.trim().replace(/^Bearer\s+/i, '');
    if (t) h.Authorization = 'Bearer ' + t;
    if (session) h['Mcp-Session-Id'] = session;
    if (version) h['MCP-Protocol-Version'] = version;
    return h;
  };
  const send = (method, body, session, version) =>
    fetch(endpoint, { method, headers: headers(session, version), body, credentials: 'omit', cache: 'no-store', redirect: 'error' });

  // Every JSON-RPC message in a body: one JSON document, or the data: fields of an SSE stream.
  const messagesIn = (text, sse) => {
    const docs = sse ? text.replace(/\r\n?/g, '\n').split('\n\n').map((e) => e.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).replace(/^ /, '')).join('\n')) : [text];
    const out = [];
    for (const doc of docs) {
      if (!doc.trim()) continue;
      try { const m = JSON.parse(doc); out.push(...(Array.isArray(m) ? m : [m])); } catch { /* not JSON: skip */ }
    }
    return out;
  };
  const isSse = (res) => (res.headers.get('Content-Type') || '').toLowerCase().includes('text/event-stream');

  // Reads an SSE answer event by event and stops at the response with our id (the stream may carry notifications first).
  const readReply = async (res, id) => {
    const match = (m) => m && m.id === id && ('result' in m || 'error' in m);
    if (!isSse(res)) return messagesIn(await res.text(), false).find(match);
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      buffer = (buffer + decoder.decode(value || new Uint8Array(), { stream: !done })).replace(/\r\n?/g, '\n');
      const cut = done ? buffer.length : buffer.lastIndexOf('\n\n') + 2;
      const found = messagesIn(buffer.slice(0, cut), true).find(match);
      buffer = buffer.slice(cut);
      if (found) { reader.cancel().catch(() => undefined); return found; }
      if (done) return undefined;
    }
  };

  const httpError = async (res, method) => {
    const text = await res.text().catch(() => '');
    const error = messagesIn(text, isSse(res)).find((m) => m && m.error)?.error;
    const detail = error ? 'JSON-RPC error ' + error.code + ': ' + error.message : text.slice(0, 2000);
    const challenge = res.headers.get('WWW-Authenticate');
    return new CallError(method + ' failed: HTTP ' + res.status + ' ' + res.statusText + '\n' + detail + (challenge ? '\nWWW-Authenticate: ' + challenge : ''));
  };

  const request = async (method, params, session, version) => {
    const id = nextId++;
    const res = await send('POST', JSON.stringify({ jsonrpc: '2.0', id, method, params }), session, version);
    if (!res.ok) throw await httpError(res, method);
    const reply = await readReply(res, id);
    if (!reply) throw new CallError(method + ' failed: HTTP ' + res.status + ', but no JSON-RPC response with id ' + id);
    if (reply.error) throw new CallError(method + ' failed: HTTP ' + res.status + '\nJSON-RPC error ' + reply.error.code + ': ' + reply.error.message);
    return { res, result: reply.result };
  };

  const render = (name, status, result) => {
    const texts = (result.content || []).map((c) => (c.type === 'text' ? pretty(c.text) : '[' + c.type + (c.uri ? ' ' + c.uri : '') + (c.mimeType ? ' ' + c.mimeType : '') + ']'));
    const body = result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, 2) : texts.join('\n\n');
    const head = result.isError ? 'Tool error from ' + name + ' (HTTP ' + status + ', isError)' : 'Result of ' + name + ' (HTTP ' + status + ')';
    show(head + '\n\n' + body, result.isError === true);
  };
  const pretty = (text) => { try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; } };

  // A button, not a form: no submission, so browsers never offer to save the token as a password.
  $('console-call').addEventListener('click', async () => {
    let input;
    try {
      input = JSON.parse(args.value.trim() || '{}');
      if (!input || typeof input !== 'object' || Array.isArray(input)) throw new Error('they must be a JSON object');
    } catch (e) {
      show('Arguments are not valid JSON: ' + e.message, true);
      return;
    }
    const name = tool.value;
    const started = performance.now();
    button.disabled = true;
    status.textContent = 'Calling ' + name + '…';
    let session, version;
    try {
      const init = await request('initialize', { protocolVersion: latest, capabilities: {}, clientInfo: { name: 'service-page-console', version: '1.0.0' } });
      session = init.res.headers.get('Mcp-Session-Id') || undefined;
      version = init.result.protocolVersion;
      const note = await send('POST', JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session, version);
      if (!note.ok) throw await httpError(note, 'notifications/initialized');
      const call = await request('tools/call', { name, arguments: input }, session, version);
      render(name, call.res.status, call.result);
      status.textContent = 'Done in ' + Math.round(performance.now() - started) + ' ms';
    } catch (e) {
      show(e instanceof CallError ? e.message : 'The call failed: ' + e.message, true);
      status.textContent = 'Failed';
    } finally {
      if (session) await send('DELETE', undefined, session, version).catch(() => undefined);
      button.disabled = false;
    }
  });
})();
`;
