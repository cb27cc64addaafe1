import { KeyedMutex } from './keyed-mutex';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('KeyedMutex', () => {
  it('runs work for one key one at a time, in arrival order, whatever the previous outcome', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let release!: () => void;
    const first = mutex.run('k', () => new Promise<string>((resolve) => (release = () => resolve('a'))).then((v) => (log.push('a'), v)));
    const second = mutex.run('k', async () => {
      log.push('b');
      throw new Error('b failed');
    });
    const third = mutex.run('k', async () => (log.push('c'), 'c'));
    await tick();
    expect(log).toEqual([]);
    release();
    await expect(first).resolves.toBe('a');
    await expect(second).rejects.toThrow('b failed');
    await expect(third).resolves.toBe('c');
    expect(log).toEqual(['a', 'b', 'c']);
  });

  it('runs different keys at once', async () => {
    const mutex = new KeyedMutex();
    let releaseA!: () => void;
    const a = mutex.run('a', () => new Promise<void>((resolve) => (releaseA = resolve)));
    await expect(mutex.run('b', async () => 'b')).resolves.toBe('b');
    releaseA();
    await a;
  });

  it('passes a synchronous throw on as a rejection and keeps the queue going', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(mutex.run('k', async () => 1)).resolves.toBe(1);
  });

  it('forgets a key once its queue is empty', async () => {
    const mutex = new KeyedMutex();
    const runs = [mutex.run('k', async () => 1), mutex.run('k', async () => 2)];
    expect(mutex.size).toBe(1);
    await Promise.all(runs);
    await tick();
    expect(mutex.size).toBe(0);
  });
});
