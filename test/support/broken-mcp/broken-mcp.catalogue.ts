import { createHash } from 'node:crypto';
import { Defects } from './defects';

export const SERVICE = 'broken-mcp';

/** The tools: two read-only (safe to call with a wrong argument), one that restarts a service elsewhere. */
export function tools(d: Defects): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [
    {
      name: d.camelCaseTool ? 'getStatus' : 'get_status',
      ...(d.toolWithoutDescription ? {} : { description: 'Returns the status of one service.' }),
      inputSchema: {
        ...(d.schemaDraftNotString ? { $schema: 7 } : {}),
        type: 'object',
        properties: { service: { type: 'string' } },
        required: ['service'],
      },
      annotations: { readOnlyHint: true },
    },
    {
      // The team's own read-only tool, listed after the first: the checks call every read-only tool, not just one.
      name: 'list_incidents',
      description: 'Lists the incidents opened since a date.',
      inputSchema: { type: 'object', properties: { since: { type: 'string' } }, required: ['since'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: 'restart_service',
      description: [
        'Restarts a service on its host.',
        ...(d.sideEffectsUndocumented ? [] : ['Side effects: the service is down for a few seconds. Risk: medium.']),
        // Said as people say it, not as a field: the checks read the ordinary phrasings.
        'Idempotency: restarting twice restarts twice. Retry: safe after 30 s. It times out after 60 s.',
        ...(d.noAuditNote ? [] : ['Audit event: broken.restart.']),
        'Approval: an operator confirms first.',
      ].join(' '),
      inputSchema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
  ];
  return list;
}

/** The prompts: the agent-routing pair, unless left out. */
export function prompts(d: Defects): Record<string, unknown>[] {
  const args = [{ name: 'topic', description: 'What the agent is asked about.', required: false }];
  const list: Record<string, unknown>[] = d.noAgentPrompts
    ? [{ name: 'summarize', description: 'Summarises the status.', arguments: args }]
    : [
        { name: 'agent_brief', description: 'When to route to this server.', arguments: args },
        { name: 'agent_prompt', description: 'How to use this server.', arguments: args },
      ];
  if (d.promptWithInputSchema) list[0] = { ...list[0], inputSchema: { type: 'object' } };
  return list;
}

/** The fixed resources, and their texts. */
export function resources(d: Defects): { uri: string; name: string; mimeType: string; text: string }[] {
  return [
    ...(d.noHttpHeadersResource
      ? []
      : [{ uri: 'use://http-headers', name: 'http-headers', mimeType: 'application/json', text: '{"headers":[]}' }]),
    ...(d.noProjectVersion
      ? []
      : [{ uri: 'project://version', name: 'version', mimeType: 'text/plain', text: '1.4.2' }]),
    {
      uri: d.foreignScheme ? 'https://status.example.com/all' : `${SERVICE}://status`,
      name: 'status',
      mimeType: 'application/json',
      text: '{"services":[]}',
    },
  ];
}

export const TEMPLATES = [
  { uriTemplate: `${SERVICE}://services/{name}`, name: 'service', mimeType: 'application/json' },
];

/** The one skill (the Skills extension, SEP-2640): its SKILL.md, served by `resources/read` but not listed there. */
export const SKILL_MD = {
  uri: 'skill://status-report/SKILL.md',
  mimeType: 'text/markdown',
  text: '---\nname: status-report\ndescription: Report the status of every service.\n---\n\nCall get_status.\n',
};

/** `skills/list`'s entry of the skill, with its manifest. */
export const SKILL_ENTRY = {
  uri: SKILL_MD.uri,
  frontmatter: { name: 'status-report', description: 'Report the status of every service.' },
  resources: [
    {
      uri: SKILL_MD.uri,
      digest: `sha256:${createHash('sha256').update(SKILL_MD.text).digest('hex')}`,
      size: Buffer.byteLength(SKILL_MD.text),
    },
  ],
};

/** What the server declares: `prompts` and `resources.subscribe` only when served as they should be; skills. */
export function capabilities(d: Defects): Record<string, unknown> {
  return {
    tools: {},
    ...(d.promptsWithoutCapability ? {} : { prompts: {} }),
    resources: {},
    extensions: { 'io.modelcontextprotocol/skills': {} },
  };
}
