import { ProgressReporter } from './progress-reporter';
import { JsonRpcMessage } from '../wire/json-rpc';

describe('ProgressReporter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const collect = () => {
    const sent: JsonRpcMessage[] = [];
    return { sent, sink: { send: (m: JsonRpcMessage) => (sent.push(m), true) } };
  };
  const values = (sent: JsonRpcMessage[]) =>
    sent.map((m) => (m as unknown as { params: { progress: number } }).params.progress);

  it('sends only rising values and coalesces a burst to its newest value', () => {
    const { sent, sink } = collect();
    const p = new ProgressReporter('tok', sink, 100);
    p.report(1);
    p.report(1);
    p.report(0.5);
    p.report(2);
    p.report(3);
    expect(values(sent)).toEqual([1]);
    jest.advanceTimersByTime(100);
    expect(values(sent)).toEqual([1, 3]);
  });

  it('sends nothing without a progress token, and nothing after the call ends', () => {
    const none = collect();
    new ProgressReporter(undefined, none.sink, 0).report(1);
    expect(none.sent).toHaveLength(0);
    const { sent, sink } = collect();
    const p = new ProgressReporter(7, sink, 100);
    p.report(1);
    p.report(2);
    p.end();
    jest.advanceTimersByTime(500);
    p.report(3);
    expect(values(sent)).toEqual([1]);
  });
});
