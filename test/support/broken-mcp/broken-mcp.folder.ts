/** What the broken server's folder holds when it is correct: its contract, limits and changes documented. */
export const BROKEN_README = [
  '# broken-mcp',
  '',
  'Tools: `get_status` returns the status of one service; `list_incidents` lists recent incidents;',
  '`restart_service` restarts one.',
  'Limits: request size limit 64 KiB, rate limit 100 calls per minute; a tool call times out after 60 s.',
  'Send `X-Tenant-Id` with every call (see `use://http-headers`).',
  '',
].join('\n');

export const BROKEN_CHANGELOG =
  '# Changelog\n\n## [Unreleased]\n\n### Added\n- `get_status`.\n\n## [1.4.2] - 2026-11-01\n\n### Fixed\n- A typo.\n';
