// Test-only: reads request examples straight from the vendored official contract, so the specs
// exercise the BCB's own bodies rather than our transcription of them.
import { readFileSync } from 'fs';
import * as path from 'path';
import { parse } from 'yaml';

const SPEC_PATH = path.resolve(__dirname, '../../spec/bcb-api-pix-2.9.0.openapi.yaml');

let examples: Record<string, { value: unknown }> | undefined;

/** A deep copy of `components.examples[name].value`. */
export function officialExample(name: string): Record<string, any> {
  examples ??= parse(readFileSync(SPEC_PATH, 'utf8')).components.examples as Record<string, { value: unknown }>;
  const example = examples[name];
  if (!example) throw new Error(`no example ${name} in the official contract`);
  return structuredClone(example.value) as Record<string, any>;
}
