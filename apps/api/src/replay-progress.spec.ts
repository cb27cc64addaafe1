import { PassThrough } from 'node:stream';
import { replayReporter } from './replay-progress';

function stream(isTTY: boolean) {
  const out = Object.assign(new PassThrough(), { isTTY, columns: 160, cursorTo: () => true, clearLine: () => true, moveCursor: () => true }) as unknown as NodeJS.WriteStream;
  let text = '';
  (out as unknown as PassThrough).on('data', (d) => (text += String(d)));
  return { out, text: () => text };
}

describe('replay progress', () => {
  it('writes plain lines with the total when not on a terminal', () => {
    const s = stream(false);
    const r = replayReporter('cobv', 1000, s.out);
    r.update(500, 250);
    r.done('[replay cobv] done');
    expect(s.text()).toBe('[replay cobv] 500/1000 events, 250 events/s\n[replay cobv] done\n');
  });

  it('draws a bar with total, rate and ETA on a terminal', () => {
    const s = stream(true);
    const r = replayReporter('cobv', 1000, s.out);
    r.update(500, 250);
    r.done('[replay cobv] done');
    expect(s.text()).toMatch(/\[replay cobv\] .*50% \| 500\/1000 events \| 250 events\/s \| ETA /);
    expect(s.text()).toContain('[replay cobv] done\n');
  });
});
