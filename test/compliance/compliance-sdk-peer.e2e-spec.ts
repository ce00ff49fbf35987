import { rmSync } from 'node:fs';
import { PeerDefects, startSdkPeerServer } from '../support/sdk-peer-server';
import {
  buildComplianceTool,
  checkServer,
  expectFailsExactly,
  failedItems,
  folderWith,
} from '../support/compliance-cli';

const README = [
  '# peer',
  '',
  'Tools: `get_status` returns the status of one service; `restart_service` restarts one.',
  'Limits: request size limit 64 KiB, tool timeout 60 s, rate limit 100 calls per minute.',
  '',
].join('\n');
const CHANGELOG = '# Changelog\n\n## [Unreleased]\n\n## [2.3.0] - 2026-10-01\n\n### Added\n- `restart_service`.\n';

/**
 * The command judges a server built without the platform as it judges the platform: a team's server on the official
 * SDK 1.x and Express, following v1.2, passes v1.2; asked for v2.0 it names each item the 2025-only server misses;
 * each defect a team could leave in it fails the matching item.
 */
describe('npm run compliance against a server written with the official SDK 1.x on Express', () => {
  const dir = folderWith({ 'README.md': README, 'CHANGELOG.md': CHANGELOG });
  beforeAll(() => buildComplianceTool(), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = async (defects: PeerDefects, extra: string[] = []) =>
    checkServer(await startSdkPeerServer(defects), dir, extra);

  it('passes v1.2, the checklist of the revision it speaks, with only what a person must judge left', async () => {
    const { code, items } = await check({});
    expect(new Set(items.map((i) => i.standard))).toEqual(new Set(['1.2']));
    expect(failedItems(items)).toEqual([]);
    expect(code).toBe(0);
    const notPassed = items.filter((i) => i.status !== 'pass').map((i) => `${i.id} ${i.status}`);
    expect(notPassed).toEqual([
      'auth.no-passthrough manual',
      'obs.structured-logs manual',
      'obs.no-tokens-in-logs manual',
      // It declares no Skills extension.
      'ext.skills not_applicable',
    ]);
    expect(items.find((i) => i.id === 'auth.jwt')!.status).toBe('pass');
  }, 120_000);

  it('names each v2.0 item it misses when asked for v2.0, with evidence, and exits 1', async () => {
    const { code, items } = await check({}, ['--standard', '2.0']);
    const failed = items.filter((i) => i.status === 'fail');
    expect(failed.map((i) => i.id)).toEqual(
      expect.arrayContaining([
        'spec.conformance',
        'spec.discover',
        'spec.headers',
        'spec.unknown-method',
        'spec.result-type',
      ]),
    );
    for (const item of failed) expect(item.evidence.join(' ')).toMatch(/-> \d{3}|passed|not listed|no resultType/);
    expect(items.find((i) => i.id === 'spec.conformance')!.evidence.join(' ')).toMatch(/caching: 0\/\d+ passed/);
    expect(code).toBe(1);
  }, 240_000);

  const DEFECTS: [keyof PeerDefects, string[]][] = [
    ['noChallenge', ['1.2 auth.www-authenticate']],
    ['camelCaseTool', ['1.2 tools.names', '1.2 doc.readme']],
    // Express's own error page is neither a JSON-RPC error nor free of the stack trace.
    ['stackTrace', ['1.2 errors.format', '1.2 errors.no-leaks']],
    ['corsWildcard', ['1.2 http.cors', '1.2 http.origin']],
    ['noRequestId', ['1.2 obs.request-id']],
  ];

  it.each(DEFECTS)(
    '%s injected fails exactly %j, with evidence',
    async (defect, expected) => {
      expectFailsExactly(await check({ [defect]: true }), expected);
    },
    120_000,
  );
});
