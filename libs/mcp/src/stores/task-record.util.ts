import { InvalidParamsError } from '../errors/mcp.error';
import { McpTaskPatch, McpTaskRecord } from './task.store';

/**
 * The record after `patch`, stamped `now`. Both task stores apply changes through this one function, so a change
 * means the same in memory and in Redis.
 * @internal
 */
export function applyTaskPatch(record: McpTaskRecord, patch: McpTaskPatch, now: number): McpTaskRecord {
  const next: McpTaskRecord = { ...record, ...patch, lastUpdatedAt: Math.max(now, record.lastUpdatedAt) };
  // Questions are open only while the task waits for them.
  if (next.status !== 'input_required') next.inputRequests = {};
  if (patch.statusMessage === undefined && patch.status !== undefined && patch.status !== record.status)
    delete next.statusMessage;
  return next;
}

/**
 * The opaque position after `record` in an owner's list (newest first). Base64url of its creation time and id: a
 * client must not read it, and a cursor that does not decode is `-32602`.
 * @internal
 */
export const encodeTaskCursor = (record: Pick<McpTaskRecord, 'createdAt' | 'id'>): string =>
  Buffer.from(JSON.stringify([record.createdAt, record.id])).toString('base64url');

/** @internal */
export function decodeTaskCursor(cursor: string): { createdAt: number; id: string } {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isInteger(value[0]) && typeof value[1] === 'string' && value[1].length <= 64)
      return { createdAt: value[0] as number, id: value[1] };
  } catch {
    // fall through: the same answer for every malformed cursor
  }
  throw new InvalidParamsError('Invalid params: cursor is not one this server gave', {
    field: 'cursor',
    reason: 'invalid_cursor',
  });
}
