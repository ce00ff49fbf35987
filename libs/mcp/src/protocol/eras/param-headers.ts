import { McpError } from '../../errors/mcp.error';
import { HeaderParam } from '../../registry/header-params';
import { ErrorCode } from '../../wire/json-rpc';
import { decodeHeaderValue } from './modern-meta';

/**
 * The `Mcp-Param-*` headers of a 2026-07-28 `tools/call` against its arguments (SEP-2243): an argument present in the
 * body needs its header, decoded (Base64 sentinel) equal to it (integers compared as numbers); a header without its
 * argument, or one that cannot be decoded, is refused too. `-32020` with HTTP 400, so a gateway that routed on the
 * header can never be told one thing while the tool does another.
 * @internal
 */
export function checkParamHeaders(
  params: readonly HeaderParam[],
  args: unknown,
  headers: Readonly<Record<string, string>>,
): void {
  for (const p of params) {
    const value = valueAt(args, p.path);
    const raw = headers[p.name.toLowerCase()];
    const header = `Mcp-Param-${p.name}`;
    if (value === undefined || value === null) {
      if (raw !== undefined) throw mismatch(`${header} is set but the argument is absent`);
      continue;
    }
    if (raw === undefined) throw mismatch(`${header} is required: the argument is in the body`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw mismatch(`${header} is not a valid value (plain visible ASCII or =?base64?…?=)`);
    if (!matches(p.type, decoded, value)) throw mismatch(`${header} does not match the argument in the body`);
  }
}

function matches(type: HeaderParam['type'], header: string, value: unknown): boolean {
  switch (type) {
    case 'integer':
      // Canonical decimal only: `0x3`, `1e3`, `+3`, ` 3` or `03` would read as one number here and another in a gateway
      // that parses the header its own way (parseInt reads `1e3` as 1).
      return CANONICAL_INTEGER.test(header) && Number(header) === value;
    case 'boolean':
      return header === String(value);
    default:
      return header === value;
  }
}

function valueAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** An integer as JSON writes it: optional minus, no leading zeros, no sign, exponent, radix or spaces. */
const CANONICAL_INTEGER = /^-?(0|[1-9][0-9]*)$/;

const mismatch = (what: string) => new McpError(ErrorCode.HeaderMismatch, `Header mismatch: ${what}`);
