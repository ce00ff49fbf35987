// Public API of corporate/ (named exports only).
export { McpCorporateOptions, McpTextSource } from '../options/corporate-options.interface';
export { AGENT_BRIEF_MAX_BYTES } from './corporate.constants';
