import { ConsumerStateClock } from './consumer-state';

describe('a consumer group stuck joining (ConsumerStateClock)', () => {
  const setUp = () => {
    let now = 0;
    const clock = new ConsumerStateClock(() => now, 60_000);
    return { clock, at: (ms: number) => (now = ms) };
  };

  it('is reported stuck once joining has lasted past the bound, and no longer once joined or stopped', () => {
    const { clock, at } = setUp();
    clock.enter('joining');
    at(60_000);
    expect(clock.reported()).toBe('joining');
    at(60_001);
    expect(clock.reported()).toBe('stuck joining');
    clock.enter('joined');
    expect(clock.reported()).toBe('joined');
    clock.enter('stopped');
    expect(clock.reported()).toBe('stopped');
  });

  it('counts from the first attempt while the group keeps joining and crashing at once (the topic gone)', () => {
    const { clock, at } = setUp();
    clock.enter('joining');
    for (let t = 300; t <= 61_000; t += 300) {
      at(t);
      clock.enter(t % 600 === 0 ? 'joined' : 'joining');
      clock.enter('joining'); // the crash right after
    }
    expect(clock.reported()).toBe('stuck joining');
  });

  it('starts counting again when a group that stayed joined for the bound has to rejoin (a broker blip hours later)', () => {
    const { clock, at } = setUp();
    clock.enter('joining');
    at(1000);
    clock.enter('joined');
    at(3_600_000);
    clock.enter('joining');
    at(3_630_000);
    expect(clock.reported()).toBe('joining');
    at(3_660_001);
    expect(clock.reported()).toBe('stuck joining');
  });
});
