// Public API of corporate/ (named exports only).
export { McpCorporateOptions, McpTextSource } from './corporate-options.interface';
