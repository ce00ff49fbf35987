/** Largest `agent_brief` text, in UTF-8 bytes (corporate standard §10.3, see docs/compliance.md#s10: at most 2 KB). */
export const AGENT_BRIEF_MAX_BYTES = 2048;

/** Names of the Avatar-profile prompts (standard §10.2, see docs/compliance.md#s10). @internal */
export const AGENT_BRIEF_PROMPT = 'agent_brief';
/** @internal */
export const AGENT_PROMPT_PROMPT = 'agent_prompt';

/** The reserved-scheme resources the corporate built-ins publish (a subset of `CORPORATE_URIS`). @internal */
export const PROJECT_VERSION_URI = 'project://version';
/** @internal */
export const DOC_README_URI = 'doc://readme';

/** `<service>://agent/brief` and `<service>://agent/prompt`, the mirrors of the two prompts (§11.2, docs/compliance.md#s11). @internal */
export const agentMirrorUri = (service: string, kind: 'brief' | 'prompt'): string => `${service}://agent/${kind}`;
