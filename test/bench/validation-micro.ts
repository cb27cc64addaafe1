/**
 * `npm run build && node tools/launch.js test/bench/validation-micro.js`: µs per `validateBody`
 * call on the bench's PUT /cobv body (issue 11: request validation was ~10% of the API's CPU).
 * Times the public entry (fast path, full path only for refusals) against the reference full
 * path (`validateBodyFully`, what every call cost before), each on a valid body and on a body
 * with one violation. Not part of `npm run bench`; prints the figures, writes nothing.
 */
import * as contracts from '@pix/contracts';
import { CobVSolicitadaDto } from '@pix/contracts';
import { putBody } from './fixtures';

type Validate = (dto: typeof CobVSolicitadaDto, body: unknown) => { value?: unknown };

/** Median of a few rounds of µs per call; each round parses a fresh body so nothing is cached. */
function microsPerCall(validate: Validate, text: string, iterations: number): number {
  const rounds: number[] = [];
  for (let round = 0; round < 7; round++) {
    const bodies = Array.from({ length: iterations }, () => JSON.parse(text) as unknown);
    const start = process.hrtime.bigint();
    for (const body of bodies) validate(CobVSolicitadaDto, body);
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / iterations);
  }
  return rounds.sort((a, b) => a - b)[3];
}

function main(): void {
  const iterations = Number(process.argv[2] ?? 20_000);
  const valid = JSON.stringify(putBody());
  const invalid = JSON.stringify({ ...putBody(), chave: 42 });
  const entries: [string, Validate | undefined][] = [
    ['validateBody', contracts.validateBody],
    // Absent before the fast path existed: then validateBody itself was the full path.
    ['validateBodyFully (reference)', (contracts as Record<string, unknown>).validateBodyFully as Validate | undefined],
  ];
  for (const [name, validate] of entries) {
    if (!validate) continue;
    for (let i = 0; i < 20_000; i++) validate(CobVSolicitadaDto, JSON.parse(valid)); // warm-up
    if (validate(CobVSolicitadaDto, JSON.parse(valid)).value === undefined) throw new Error(`${name} refused the valid body`);
    const ok = microsPerCall(validate, valid, iterations);
    const refused = microsPerCall(validate, invalid, iterations / 4);
    console.log(`${name.padEnd(30)} valid body ${ok.toFixed(2).padStart(7)} µs/call   one violation ${refused.toFixed(2).padStart(7)} µs/call`);
  }
}

main();
