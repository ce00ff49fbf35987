import { SESSION_ERA_METHODS, MODERN_METHODS, routeOf } from './method-table';
import { callTool } from './handlers/tools.handler';

describe('method tables', () => {
  it('lead from a method name to its handler and capability', () => {
    expect(routeOf(MODERN_METHODS, 'tools/call')).toEqual({ capability: 'tools', handler: callTool });
    expect(routeOf(SESSION_ERA_METHODS, 'tools/call')).toBe(routeOf(MODERN_METHODS, 'tools/call'));
    expect(routeOf(SESSION_ERA_METHODS, 'ping')?.capability).toBeUndefined();
  });

  it('never answer with an inherited property', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(routeOf(SESSION_ERA_METHODS, name)).toBeUndefined();
      expect(routeOf(MODERN_METHODS, name)).toBeUndefined();
    }
  });

  it('keep each era to its own methods', () => {
    for (const removed of ['ping', 'logging/setLevel', 'resources/subscribe', 'tasks/result', 'tasks/list'])
      expect(routeOf(MODERN_METHODS, removed)).toBeUndefined();
    for (const added of ['server/discover', 'tasks/update'])
      expect(routeOf(SESSION_ERA_METHODS, added)).toBeUndefined();
  });
});
