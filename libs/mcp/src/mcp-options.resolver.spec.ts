import { resolveMcpOptions } from './mcp-options.resolver';

describe('resolveMcpOptions: skills', () => {
  afterEach(() => {
    delete process.env.MCP_SKILLS_DIR;
    delete process.env.MCP_SKILLS_SCOPES;
  });

  it('serves no skills by default', () => {
    expect(resolveMcpOptions({ name: 'svc', version: '1.0.0' }).skills).toBeUndefined();
  });

  it('takes the option, else MCP_SKILLS_DIR', () => {
    process.env.MCP_SKILLS_DIR = '/srv/skills';
    expect(resolveMcpOptions({ name: 'svc', version: '1.0.0' }).skills).toEqual({ root: '/srv/skills' });
    expect(resolveMcpOptions({ name: 'svc', version: '1.0.0', skills: { root: 'here' } }).skills).toEqual({
      root: 'here',
    });
  });

  it('refuses an empty root', () => {
    expect(() => resolveMcpOptions({ name: 'svc', version: '1.0.0', skills: { root: '' } })).toThrow('skills.root');
  });

  it('takes the scopes option, else MCP_SKILLS_SCOPES', () => {
    process.env.MCP_SKILLS_DIR = '/srv/skills';
    process.env.MCP_SKILLS_SCOPES = ' close-ticket=tickets:write ; support/triage-ticket=tickets:read  tickets:x;';
    expect(resolveMcpOptions({ name: 'svc', version: '1.0.0' }).skills).toEqual({
      root: '/srv/skills',
      scopes: { 'close-ticket': ['tickets:write'], 'support/triage-ticket': ['tickets:read', 'tickets:x'] },
    });
    const own = { root: 'here', scopes: { a: ['s'] } };
    expect(resolveMcpOptions({ name: 'svc', version: '1.0.0', skills: own }).skills).toEqual(own);
    process.env.MCP_SKILLS_SCOPES = 'no-equals-sign';
    expect(() => resolveMcpOptions({ name: 'svc', version: '1.0.0' })).toThrow('MCP_SKILLS_SCOPES');
  });

  it('refuses scopes that are not lists of scope tokens', () => {
    for (const scopes of [{ a: 'tickets:read' }, { a: ['two words'] }, { a: [''] }])
      expect(() =>
        resolveMcpOptions({ name: 'svc', version: '1.0.0', skills: { root: 'r', scopes: scopes as never } }),
      ).toThrow('skills.scopes["a"]');
  });
});
