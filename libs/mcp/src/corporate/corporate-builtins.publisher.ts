import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { MCP_MODULE_OPTIONS } from '../mcp.constants';
import { ResolvedMcpOptions } from '../options/mcp-module-options.interface';
import { McpRegistry } from '../registry/mcp.registry';
import { CorporateText, CorporateTexts, loadCorporateTexts } from './corporate-text.loader';
import { projectVersionDocument } from './project-version.document';
import {
  AGENT_BRIEF_PROMPT,
  AGENT_PROMPT_PROMPT,
  DOC_README_URI,
  PROJECT_VERSION_URI,
  agentMirrorUri,
} from './corporate.constants';

/** One Avatar-profile prompt and its resource mirror (standard §10.2 and §11.2, see docs/compliance.md#s10). */
interface AgentText {
  option: 'agentBrief' | 'agentPrompt';
  prompt: string;
  kind: 'brief' | 'prompt';
  title: string;
  description: string;
}

const AGENT_TEXTS: AgentText[] = [
  {
    option: 'agentBrief',
    prompt: AGENT_BRIEF_PROMPT,
    kind: 'brief',
    title: 'Agent brief',
    description: 'Routing brief (level 1): the domain of this server, when to select it and when not, key constraints.',
  },
  {
    option: 'agentPrompt',
    prompt: AGENT_PROMPT_PROMPT,
    kind: 'prompt',
    title: 'Agent operating instructions',
    description:
      'Operating instructions (level 2): how to use each tool, domain and security constraints, answer format, examples.',
  },
];

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const where = (e: { className?: string; methodName?: string }): string =>
  e.className ? `${e.className}.${e.methodName}` : 'a run-time entry';

/**
 * Publishes the corporate built-ins: `agent_brief` and `agent_prompt` with their
 * `<service>://agent/*` mirrors (same text, `text/markdown`), `project://version` and `doc://readme`.
 * Texts are read and checked at module init; entries are added at bootstrap, after discovery, so a
 * team's own decorated entry is seen. All are public (no scopes) and transport-independent: stdio
 * clients route by them as much as HTTP ones.
 * @internal
 */
@Injectable()
export class CorporateBuiltins implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('McpCorporate');
  private texts?: CorporateTexts;

  constructor(
    private readonly registry: McpRegistry,
    @Inject(MCP_MODULE_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  onModuleInit(): void {
    this.texts = loadCorporateTexts(this.options.corporate);
  }

  onApplicationBootstrap(): void {
    const texts = this.texts ?? loadCorporateTexts(this.options.corporate);
    // Check every built-in before adding any, so one failed start names every conflict.
    const conflicts = [
      ...AGENT_TEXTS.map((a) =>
        this.conflict(a.option, texts[a.option], [
          this.ownPrompt(a.prompt),
          this.ownResource(agentMirrorUri(this.options.name, a.kind)),
        ]),
      ),
      this.conflict('projectVersion', texts.projectVersion === 'on' ? 'on' : 'unset', [
        this.ownResource(PROJECT_VERSION_URI),
      ]),
      this.conflict('readme', texts.readme, [this.ownResource(DOC_README_URI)]),
    ].filter((c): c is string => !!c);
    if (conflicts.length)
      throw new Error(
        `McpModule: the corporate built-ins conflict with the app's own entries:\n  - ${conflicts.join('\n  - ')}`,
      );
    for (const a of AGENT_TEXTS) this.publishAgentText(a, texts[a.option]);
    if (texts.projectVersion !== 'off' && !this.registry.resources.has(PROJECT_VERSION_URI)) this.publishVersion();
    if (typeof texts.readme === 'object') this.publishReadme(texts.readme.text);
    else if (texts.readme === 'unset')
      this.logger.debug('doc://readme not published: corporate.readme is not set (a MAY, standard §11.2)');
  }

  /** A built-in that is configured explicitly may not meet a team's own entry: which one would win is not obvious. */
  private conflict(option: string, state: CorporateText | 'on', own: (string | undefined)[]): string | undefined {
    const found = own.filter(Boolean);
    if (state === 'off' || state === 'unset' || !found.length) return undefined;
    return `corporate.${option} is set, but the app also defines ${found.join(' and ')}: keep one (remove the decorator, or set corporate.${option} to false)`;
  }

  private ownPrompt(name: string): string | undefined {
    const e = this.registry.prompts.get(name);
    return e && `prompt "${name}" (${where(e)})`;
  }

  private ownResource(uri: string): string | undefined {
    const e = this.registry.resources.get(uri);
    return e && `resource "${uri}" (${where(e)})`;
  }

  private publishAgentText(a: AgentText, state: CorporateText): void {
    const uri = agentMirrorUri(this.options.name, a.kind);
    if (state === 'off') return;
    if (state === 'unset') {
      const prompt = this.registry.prompts.has(a.prompt);
      const mirror = this.registry.resources.has(uri);
      if (!prompt && !mirror) {
        this.logger.warn(
          `No ${a.prompt} prompt: set corporate.${a.option} (text or { file }), or set it to false and explain the deviation in the README (corporate standard §10.2)`,
        );
      } else if (!prompt || !mirror) {
        this.logger.warn(
          `The app defines ${prompt ? `the ${a.prompt} prompt but not its mirror ${uri}` : `${uri} but not the ${a.prompt} prompt`} (corporate standard §10.2, §11.2)`,
        );
      }
      return;
    }
    const { text } = state;
    this.registry.addPrompt({ name: a.prompt, title: a.title, description: a.description }, () => text);
    this.registry.addResource(
      {
        uri,
        name: a.prompt,
        title: a.title,
        description: `${a.description} Mirror of the ${a.prompt} prompt.`,
        mimeType: 'text/markdown',
        size: bytes(text),
      },
      () => text,
    );
  }

  private publishVersion(): void {
    const body = JSON.stringify(projectVersionDocument(this.options), null, 2);
    this.registry.addResource(
      {
        uri: PROJECT_VERSION_URI,
        name: 'version',
        title: 'Server version',
        description: 'Name and semver version of this server: the same version as serverInfo.version and /health.',
        mimeType: 'application/json',
        size: bytes(body),
      },
      () => body,
    );
  }

  private publishReadme(text: string): void {
    this.registry.addResource(
      {
        uri: DOC_README_URI,
        name: 'readme',
        title: 'README',
        description: 'The README of this server: its public contract.',
        mimeType: 'text/markdown',
        size: bytes(text),
      },
      () => text,
    );
  }
}
