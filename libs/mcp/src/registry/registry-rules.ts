/** Boot-time rules of the corporate profile. @internal */
export const TOOL_NAME_PATTERN = /^[a-z][a-z0-9_]{1,63}$/;
/** Schemes every server may use besides its own (standard §11.1, see docs/compliance.md#s11). */
export const CORPORATE_SCHEMES = ['use', 'project', 'doc'] as const;

/** `searchTickets` -> `search_tickets`. @internal */
export const toSnakeCase = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();

/** The scheme of a URI or URI template, or undefined. @internal */
export const uriScheme = (uri: string): string | undefined =>
  /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();

/**
 * Collects every boot-time violation, so one failed start names all of them.
 * @internal
 */
export class RegistryViolations {
  private readonly errors: string[] = [];

  add(where: string, message: string): void {
    this.errors.push(`${where}: ${message}`);
  }

  throwIfAny(): void {
    if (this.errors.length) {
      throw new Error(
        `Invalid MCP registry (${this.errors.length} problem${this.errors.length > 1 ? 's' : ''}):\n  - ${this.errors.join('\n  - ')}`,
      );
    }
  }
}
