// Public API of health/ (named exports only).
export { McpHealthOptions } from './health-options.interface';
