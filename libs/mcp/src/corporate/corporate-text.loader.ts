import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { McpCorporateOptions, McpTextSource } from '../options/corporate-options.interface';
import { AGENT_BRIEF_MAX_BYTES } from './corporate.constants';

/** One text option after boot: its text, switched off (`false`), or left unset. @internal */
export type CorporateText = { text: string } | 'off' | 'unset';

/** The corporate options with every text read. @internal */
export interface CorporateTexts {
  agentBrief: CorporateText;
  agentPrompt: CorporateText;
  readme: CorporateText;
  projectVersion: 'on' | 'off' | 'unset';
}

/**
 * Reads every text of `corporate` once, at boot: a file that cannot be read, an empty text or a brief
 * over 2 KB stops the start, and the message names the option and the file, so a broken deployment
 * fails before serving instead of publishing an empty routing brief.
 * @internal
 */
export function loadCorporateTexts(options: McpCorporateOptions | undefined): CorporateTexts {
  const o = options ?? {};
  const problems: string[] = [];
  const agentBrief = load('agentBrief', o.agentBrief, problems);
  if (typeof agentBrief === 'object') {
    const bytes = Buffer.byteLength(agentBrief.text, 'utf8');
    if (bytes > AGENT_BRIEF_MAX_BYTES) {
      problems.push(
        `corporate.agentBrief${origin(o.agentBrief)} is ${bytes} bytes; the corporate standard (§10.3) allows at most ${AGENT_BRIEF_MAX_BYTES} bytes (2 KB) of UTF-8 text: shorten it and move details to agentPrompt`,
      );
    }
  }
  const agentPrompt = load('agentPrompt', o.agentPrompt, problems);
  const readme = load('readme', o.readme, problems);
  if (o.projectVersion !== undefined && typeof o.projectVersion !== 'boolean')
    problems.push('corporate.projectVersion must be true or false');
  if (problems.length)
    throw new Error(`McpModule: the corporate built-ins cannot start:\n  - ${problems.join('\n  - ')}`);
  const projectVersion = o.projectVersion === undefined ? 'unset' : o.projectVersion ? 'on' : 'off';
  return { agentBrief, agentPrompt, readme, projectVersion };
}

function load(option: string, source: McpTextSource | false | undefined, problems: string[]): CorporateText {
  if (source === undefined) return 'unset';
  if (source === false) return 'off';
  let text: string;
  if (typeof source === 'string') {
    text = source;
  } else if (source && typeof source === 'object' && typeof source.file === 'string' && source.file) {
    const path = resolve(source.file);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      problems.push(`corporate.${option}: cannot read file "${path}" (${reason})`);
      return 'unset';
    }
  } else {
    problems.push(`corporate.${option} must be a string, { file: string } or false`);
    return 'unset';
  }
  if (!text.trim()) {
    problems.push(`corporate.${option}${origin(source)} is empty`);
    return 'unset';
  }
  return { text };
}

const origin = (source: McpTextSource | false | undefined): string =>
  source && typeof source === 'object' ? ` (file "${resolve(source.file)}")` : '';
