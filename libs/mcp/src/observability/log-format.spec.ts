import pino from 'pino';
import { Writable } from 'node:stream';
import { isoTime, mcpPinoOptions } from './log-format';

/** A pino logger with the module's options, writing into a string. */
function capture(): { logger: pino.Logger; text: () => string } {
  let text = '';
  const sink = new Writable({ write: (chunk, _enc, done) => ((text += chunk.toString()), done()) });
  return { logger: pino(mcpPinoOptions('info'), sink), text: () => text };
}

describe('log redaction', () => {
  it('drops the request and response an HTTP client error carries', () => {
    const { logger, text } = capture();
    const error = Object.assign(new Error('Request failed with status code 502'), {
      code: 'ERR_BAD_RESPONSE',
      config: { headers: { Authorization: 'Bearer eyJSECRET.planted.token' }, data: '{"password":"hunter2"}' },
      response: { config: { headers: { authorization: 'Bearer eyJSECRET.planted.token' } }, data: 'cookie=abc' },
    });
    logger.error({ err: error }, 'upstream failed');
    const line = JSON.parse(text());
    expect(line.err).toMatchObject({
      type: 'Error',
      message: 'Request failed with status code 502',
      code: 'ERR_BAD_RESPONSE',
    });
    expect(text()).not.toMatch(/eyJSECRET|hunter2|cookie=abc/);
  });

  it('masks secret-named keys at the top level and a few levels down', () => {
    const { logger, text } = capture();
    logger.info({
      password: 'top-secret-1',
      options: { db: { password: 'nested-secret-2' } },
      headers: { authorization: 'Bearer nested-3', cookie: 'c=4' },
      apiKey: 'k-5',
    });
    expect(text()).not.toMatch(/top-secret-1|nested-secret-2|nested-3|c=4|k-5/);
    expect(text()).toContain('[REDACTED]');
  });

  it("renames an application line's top-level channel, so it cannot pass for an audit event", () => {
    const { logger, text } = capture();
    logger.info({ channel: 'audit', event: 'tool_call', outcome: 'ok' });
    const line = JSON.parse(text());
    expect(line.channel).toBeUndefined();
    expect(line.appChannel).toBe('audit');
  });
});

describe('isoTime', () => {
  it("formats pino's time field as ISO 8601, the same as pino's own isoTime", () => {
    const before = Date.now();
    const field = isoTime();
    const value = JSON.parse(`{${field.slice(1)}}`) as { time: string };
    expect(Date.parse(value.time)).toBeGreaterThanOrEqual(before);
    expect(value.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('matches Date#toISOString at every millisecond, across seconds, days and years', () => {
    const start = Date.UTC(2026, 11, 31, 23, 59, 58, 990);
    const now = jest.spyOn(Date, 'now');
    try {
      for (let t = start; t < start + 2_100; t += 7) {
        now.mockReturnValue(t);
        expect(isoTime()).toBe(`,"time":"${new Date(t).toISOString()}"`);
      }
    } finally {
      now.mockRestore();
    }
  });
});
