/** A JWT, or a bearer credential, written out. */
const TOKEN_IN_LOG = /\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}|Bearer\s+(?![\w-]+=")[\w\-.~+/]{16,}/;
/**
 * The platform's start lines ("<name> MCP server listening on <url>", "<name> metrics on <url>"): written for the
 * person who started it, not log entries.
 */
const START_LINE = /^(?:\S+ MCP server )?listening on \S+(?: \((?:express|fastify)\))?$|^\S+ metrics on \S+$/;

/** What a server's log shows: its entries, how many are JSON objects, the first that is not, one holding a token. */
export interface LogFindings {
  lines: string[];
  json: number;
  plain?: string;
  leak?: string;
}

const isJsonObject = (line: string) => {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
};

/** Reads a server's stdout and stderr as the log checks judge it. */
export function logFindings(text: string): LogFindings {
  const lines = text.split('\n').filter((l) => l.trim() && !START_LINE.test(l.trim()));
  const plain = lines.find((l) => !isJsonObject(l));
  const leak = lines.find((l) => TOKEN_IN_LOG.test(l));
  return {
    lines,
    json: lines.filter(isJsonObject).length,
    ...(plain ? { plain } : {}),
    ...(leak ? { leak } : {}),
  };
}
