import { resolveMcpOptions } from './mcp-options.resolver';

describe('resolveMcpOptions: skills', () => {
  afterEach(() => delete process.env.MCP_SKILLS_DIR);

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
});
