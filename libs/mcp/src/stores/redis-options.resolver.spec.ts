import { resolveRedisOptions } from './redis-options.resolver';

describe('resolveRedisOptions', () => {
  it('defaults to a standalone Redis on loopback with the mcp:<name>: prefix', () => {
    expect(resolveRedisOptions(undefined, 'desk', {})).toEqual({
      url: 'redis://127.0.0.1:6379',
      keyPrefix: 'mcp:desk:',
      sentinels: [],
      sentinelName: 'mymaster',
      clusterNodes: [],
    });
  });

  it('reads sentinels and cluster nodes from comma lists, options first', () => {
    const env = {
      REDIS_SENTINELS: ' s1:26379, s2:26379 ',
      REDIS_SENTINEL_NAME: 'primary',
      REDIS_URL: 'rediss://:pw@x:6380',
    };
    expect(resolveRedisOptions(undefined, 'desk', env)).toMatchObject({
      url: 'rediss://:pw@x:6380',
      sentinels: ['s1:26379', 's2:26379'],
      sentinelName: 'primary',
    });
    expect(resolveRedisOptions({ sentinels: ['a:1'] }, 'desk', env).sentinels).toEqual(['a:1']);
  });

  it('gives a Cluster a hash-tagged prefix, and refuses one without a hash tag', () => {
    expect(resolveRedisOptions(undefined, 'desk', { REDIS_CLUSTER_NODES: 'n1:7000,[::1]:7001' })).toMatchObject({
      keyPrefix: '{mcp:desk}:',
      clusterNodes: ['n1:7000', '[::1]:7001'],
    });
    expect(() => resolveRedisOptions({ clusterNodes: ['n1:7000'], keyPrefix: 'mcp:desk:' }, 'desk', {})).toThrow(
      /hash tag, e\.g\. "\{mcp:desk\}:"/,
    );
  });

  it.each([
    [{ url: 'http://x' }, /must start with redis:\/\//],
    [{ sentinels: ['a:1'], clusterNodes: ['b:2'] }, /not both/],
    [{ sentinels: ['no-port'] }, /host:port \(got "no-port"\)/],
    [{ clusterNodes: ['h:70000'] }, /host:port/],
    [{ sentinels: ['a:1'], sentinelName: '' }, /must not be empty/],
  ])('refuses %j at boot', (options, message) => {
    expect(() => resolveRedisOptions(options, 'desk', {})).toThrow(message);
  });
});
