import { checkApps } from './app-rules';
import { RegistryViolations } from './registry-rules';
import { ResourceEntry, ToolEntry } from './registry-entries';

const view = { uri: 'ui://v', ui: {}, requiredScopes: ['a'] } as unknown as ResourceEntry;
const plain = { uri: 'desk://plain', requiredScopes: [] } as unknown as ResourceEntry;
const resources = new Map([
  ['ui://v', view],
  ['ui://plain', plain],
]);

/** The problems checkApps finds for one tool linked as `ui`. */
function problems(ui: { resourceUri: string; visibility: string[] }, requiredScopes: string[] = []): string[] {
  const tool = { name: 't', className: 'T', methodName: 'm', requiredScopes, ui } as unknown as ToolEntry;
  const v = new RegistryViolations();
  checkApps(new Map([['t', tool]]), resources, v);
  try {
    v.throwIfAny();
    return [];
  } catch (e) {
    return (e as Error).message.split('\n  - ').slice(1);
  }
}

describe('MCP Apps rules over the whole catalogue', () => {
  it("accepts a tool linked to a view, for the model and the app, or app-only within the view's scopes", () => {
    expect(problems({ resourceUri: 'ui://v', visibility: ['model', 'app'] }, ['b'])).toEqual([]);
    expect(problems({ resourceUri: 'ui://v', visibility: ['app'] }, ['a'])).toEqual([]);
  });

  it('refuses a visibility that is empty or holds anything but model and app', () => {
    expect(problems({ resourceUri: 'ui://v', visibility: [] })).toEqual([
      'T.m: tool "t" ui.visibility must list "model", "app" or both, got []',
    ]);
    expect(problems({ resourceUri: 'ui://v', visibility: ['user'] })).toEqual([
      expect.stringContaining('got ["user"]'),
    ]);
  });

  it('refuses a resourceUri that is not a ui:// URI', () => {
    expect(problems({ resourceUri: 'https://v.example', visibility: ['model'] })).toEqual([
      'T.m: tool "t" ui.resourceUri "https://v.example" must be a ui:// URI (an @McpApp view)',
    ]);
  });

  it('refuses a resourceUri that names no view of this server', () => {
    expect(problems({ resourceUri: 'ui://missing', visibility: ['model'] })).toEqual([
      'T.m: tool "t" ui.resourceUri "ui://missing" names no @McpApp view of this server',
    ]);
    expect(problems({ resourceUri: 'ui://plain', visibility: ['model'] })).toEqual([
      expect.stringContaining('"ui://plain" names no @McpApp view'),
    ]);
  });

  it('refuses an app-only tool that requires a scope the view does not', () => {
    expect(problems({ resourceUri: 'ui://v', visibility: ['app'] }, ['a', 'b'])).toEqual([
      expect.stringMatching(/^T\.m: app-only tool "t" requires b, which the view "ui:\/\/v" does not: /),
    ]);
  });
});
