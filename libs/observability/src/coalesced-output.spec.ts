import { coalescedOutput } from './coalesced-output';

describe('coalescedOutput', () => {
  it('writes the lines of one event-loop turn in one write, in order, at the end of that turn', async () => {
    const writes: string[] = [];
    const sink = coalescedOutput({ write: (chunk: string) => (writes.push(chunk), true) } as unknown as NodeJS.WritableStream);
    sink.write('a\n');
    sink.write('b\n');
    expect(writes).toEqual([]);
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['a\nb\n']);
    sink.write('c\n');
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes what is pending when the process exits', () => {
    const writes: string[] = [];
    const sink = coalescedOutput({ write: (chunk: string) => (writes.push(chunk), true) } as unknown as NodeJS.WritableStream);
    sink.write('last words\n');
    process.emit('exit', 0);
    expect(writes).toEqual(['last words\n']);
  });
});
