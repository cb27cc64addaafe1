import { setFlagsFromString } from 'node:v8';

/**
 * How far V8's old generation may grow past the live heap before a full collection: +100%.
 * V8 derives its own factor from the heap limit: up to 4x with the default limit (4 GB on a
 * machine with 16 GB or more). The API's live heap is ~35 MiB, but under load the requests in
 * flight outlive young-generation collections and pile up as garbage in the old generation:
 * 125-135 MiB of it before each full collection, RSS 218-234 MiB under PUT load (issue 11's
 * budget: 227). At +100% the old generation stays under ~70 MiB (RSS 160-171 MiB); twice the
 * full collections, each shorter, and the same API CPU per PUT at 64 clients (0.55 ms, back to
 * back). `--heap-growing-percent` on the command line or in NODE_OPTIONS wins.
 */
export const HEAP_GROWING_PERCENT = 100;

/** Returns whether it set the flag (false: the command line or NODE_OPTIONS already does). */
export function limitHeapGrowth(argv: string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '', set: (flags: string) => void = setFlagsFromString): boolean {
  if ([...argv, ...nodeOptions.split(/\s+/)].some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return false;
  set(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
