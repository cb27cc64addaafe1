import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth';

describe('limitHeapGrowth', () => {
  const run = (argv: string[], nodeOptions: string) => {
    const set: string[] = [];
    return { changed: limitHeapGrowth(argv, nodeOptions, (flags) => set.push(flags)), set };
  };

  it('sets the old generation growth for the API', () => {
    expect(run(['--enable-source-maps'], '')).toEqual({ changed: true, set: [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`] });
  });

  it('leaves a value given on the command line or in NODE_OPTIONS alone', () => {
    expect(run(['--heap-growing-percent=0'], '')).toEqual({ changed: false, set: [] });
    expect(run([], '--max-old-space-size=512 --heap_growing_percent=300')).toEqual({ changed: false, set: [] });
  });
});
