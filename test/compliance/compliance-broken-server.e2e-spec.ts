import { rmSync } from 'node:fs';
import { BROKEN_CHANGELOG, BROKEN_README } from '../support/broken-mcp/broken-mcp.folder';
import { Defects, startBrokenMcpServer } from '../support/broken-mcp/broken-mcp.server';
import {
  buildComplianceTool,
  checkServer,
  expectFailsExactly,
  failedItems,
  folderWith,
} from '../support/compliance-cli';

/** Each defect and the items it must fail (`<standard> <id>`); a SHOULD alone leaves the exit code 0. */
const DEFECTS: [keyof Defects, string[]][] = [
  ['noHealth', ['1.2 http.health', '1.2 doc.version', '2.0 http.health', '2.0 doc.version']],
  ['ignoresProtocolVersionHeader', ['1.2 http.protocol-version']],
  ['textPlainAnswers', ['1.2 http.accept']],
  [
    'anonymousToolCalls',
    ['1.2 auth.required', '1.2 auth.www-authenticate', '2.0 auth.required', '2.0 auth.www-authenticate'],
  ],
  // The version it leaves out is the one the version items read.
  ['initializeWithoutVersion', ['1.2 life.initialize', '1.2 doc.semver', '1.2 doc.version']],
  ['initializedRefused', ['1.2 life.initialized']],
  ['unknownNameAsMethodNotFound', ['1.2 life.tools', '1.2 life.prompts', '1.2 life.resources']],
  ['schemaDraftNotString', ['1.2 tools.schema-draft', '2.0 tools.schema-draft']],
  [
    'validationAsInternalError',
    ['1.2 tools.arguments', '1.2 tools.is-error', '1.2 errors.is-error', '2.0 tools.arguments'],
  ],
  ['badVersion', ['1.2 doc.semver', '2.0 doc.semver']],
  ['healthVersionDiffers', ['1.2 doc.version', '2.0 doc.version']],
  ['noChallenge', ['1.2 auth.www-authenticate', '2.0 auth.www-authenticate']],
  ['ignoresExpiry', ['1.2 auth.jwt', '2.0 auth.jwt']],
  ['ignoresAudience', ['1.2 auth.jwt', '2.0 auth.jwt']],
  ['queryToken', ['1.2 auth.no-secrets', '2.0 auth.no-secrets']],
  ['noProtectedResourceMetadata', ['1.2 auth.discovery', '2.0 auth.discovery']],
  ['corsWildcard', ['1.2 http.cors', '1.2 http.origin', '2.0 http.cors-origin']],
  [
    'noPayloadLimit',
    ['1.2 http.payload-documented', '1.2 errors.limits', '2.0 http.payload-documented', '2.0 errors.limits'],
  ],
  ['wrongUnknownMethodCode', ['1.2 life.unknown-method', '2.0 spec.unknown-method']],
  ['unsupportedVersionCode', ['2.0 spec.unknown-method']],
  ['headerMismatchTaken', ['2.0 spec.headers']],
  ['noResultType', ['2.0 spec.result-type']],
  ['legacyNotFoundInModern', ['2.0 errors.codes']],
  // The README names the tools as they were: a renamed tool is undocumented too.
  ['camelCaseTool', ['1.2 tools.names', '1.2 doc.readme', '2.0 tools.names', '2.0 doc.readme']],
  ['toolWithoutDescription', ['1.2 tools.fields', '2.0 tools.fields']],
  ['validationWithoutField', ['1.2 tools.arguments', '2.0 tools.arguments']],
  // Every read-only tool gets the wrong argument, the team's own as well as the first listed.
  [
    'secondToolUnvalidated',
    ['1.2 tools.arguments', '1.2 tools.is-error', '1.2 errors.is-error', '2.0 tools.arguments'],
  ],
  // v1.2 allows a wrong argument to be -32602 (Appendix B); v2.0 wants an isError result.
  ['validationAsRpcError', ['2.0 tools.arguments']],
  ['unstableToolOrder', ['1.2 tools.deterministic', '2.0 tools.deterministic']],
  ['sideEffectsUndocumented', ['1.2 tools.side-effects', '2.0 tools.side-effects']],
  ['noAuditNote', ['1.2 tools.external-effects', '2.0 tools.external-effects']],
  ['promptsWithoutCapability', ['1.2 life.negotiated', '1.2 prompts.capability', '2.0 prompts.capability']],
  ['promptWithInputSchema', ['1.2 prompts.arguments', '2.0 prompts.arguments']],
  ['noAgentPrompts', ['1.2 prompts.agent', '2.0 prompts.agent']],
  ['noHttpHeadersResource', ['1.2 resources.http-headers', '2.0 resources.http-headers']],
  ['foreignScheme', ['1.2 resources.schemes', '2.0 resources.schemes']],
  ['readWithoutMimeType', ['1.2 resources.read-shape']],
  ['subscribeUndeclared', ['1.2 resources.capabilities']],
  ['noRequestId', ['1.2 obs.request-id', '2.0 obs.request-id']],
  ['traceparentRejected', ['1.2 obs.traceparent', '2.0 obs.traceparent']],
  ['stackTrace', ['1.2 errors.no-leaks', '2.0 errors.no-leaks']],
  ['noProjectVersion', ['1.2 doc.project-version', '2.0 doc.project-version']],
  // Without initialize the server is checked against v2.0 only, which asks for the older clients.
  ['modernOnly', ['2.0 spec.legacy-clients']],
  // The Skills extension is declared and its one skill listed, but its SKILL.md cannot be read.
  ['skillUnreadable', ['1.2 ext.skills', '2.0 ext.skills']],
];

/**
 * `npm run compliance -- --url …` against a small server written without the platform, speaking both eras: correct,
 * it passes every item the tool checks of both checklists; broken one defect at a time, it fails exactly the items of
 * that defect, each with its evidence. (The conformance suite's verdict is left out here: this server implements
 * only what the checklists ask, and the suite is proved on the platform and on the SDK peer server.)
 */
describe('npm run compliance against a server written without the platform, broken one defect at a time', () => {
  const dir = folderWith({ 'README.md': BROKEN_README, 'CHANGELOG.md': BROKEN_CHANGELOG });
  beforeAll(() => buildComplianceTool(), 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = async (defects: Defects) =>
    checkServer(await startBrokenMcpServer(defects), dir, ['--skip', 'spec.conformance']);

  it('passes the correct server on every item of both checklists but the ones a person must judge', async () => {
    const { code, items } = await check({});
    expect(failedItems(items)).toEqual([]);
    expect(code).toBe(0);
    const notPassed = items.filter((i) => i.status !== 'pass').map((i) => `${i.standard} ${i.id} ${i.status}`);
    expect(notPassed.sort()).toEqual(
      [
        '1.2 auth.no-passthrough manual',
        '1.2 obs.no-tokens-in-logs manual',
        '1.2 obs.structured-logs manual',
        '2.0 auth.no-passthrough manual',
        '2.0 obs.logs manual',
        '2.0 spec.conformance manual',
      ].sort(),
    );
  }, 60_000);

  it.each(DEFECTS)(
    '%s fails exactly %j, with evidence',
    async (defect, expected) => {
      expectFailsExactly(await check({ [defect]: true }), expected);
    },
    60_000,
  );
});
