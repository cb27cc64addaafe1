/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function and per origin
 * (workspace code, npm package, Node internals, GC), and inclusive time of workspace functions.
 * Optionally only the samples inside [fromUs, toUs] (the profile's clock is CLOCK_MONOTONIC,
 * the same as process.hrtime in any process on Linux).
 * Standalone: node tools/launch.js test/bench/summarize-cpuprofile.js <file.cpuprofile> [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Entry {
  name: string;
  where: string;
  ms: number;
  share: number;
}

export interface Summary {
  totalMs: number;
  samples: number;
  self: Entry[];
  /** For each self-time entry (by `name where`), its most frequent caller chain and that chain's share of it. */
  callers: Map<string, { chain: string; share: number }>;
  origins: Entry[];
  inclusive: Entry[];
}

/** "workspace: libs/read-models", "npm: class-validator", "node: internal", or a V8 pseudo-frame. */
export function originOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8 builtin)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm: ${pkg[1]}`;
  const own = /\/dist\/((?:apps|libs|test)\/[^/]+)/.exec(url);
  if (own) return `workspace: ${own[1]}`;
  if (url.startsWith('node:')) return 'node: internals';
  return url;
}

const shortUrl = (url: string) => url.replace(/^.*\/node_modules\//, '').replace(/^.*\/dist\//, '').replace(/^file:\/\//, '');

export function summarize(profile: CpuProfile, fromUs = -Infinity, toUs = Infinity): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}\u0000${n.callFrame.url}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const origins = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const chains = new Map<string, Map<string, number>>();
  const frame = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} (${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1})`;
  let t = profile.startTime;
  let total = 0;
  let counted = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    t += delta;
    // A sample stands for the time until the next one.
    const weight = (profile.timeDeltas[i + 1] ?? delta) / 1000;
    if (t < fromUs || t > toUs) continue;
    const node = byId.get(profile.samples[i])!;
    total += weight;
    counted++;
    self.set(key(node), (self.get(key(node)) ?? 0) + weight);
    // Caller chain: the nearest three frames from a package or the workspace (not Node internals).
    const chain: string[] = [];
    for (let id = parent.get(node.id); id !== undefined && chain.length < 3; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (/node_modules|\/dist\//.test(n.callFrame.url)) chain.push(frame(n));
    }
    const perKey = chains.get(key(node)) ?? new Map<string, number>();
    perKey.set(chain.join(' ← '), (perKey.get(chain.join(' ← ')) ?? 0) + weight);
    chains.set(key(node), perKey);
    const origin = originOf(node.callFrame.url, node.callFrame.functionName);
    origins.set(origin, (origins.get(origin) ?? 0) + weight);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const n = byId.get(id)!;
      if (!/\/dist\/(apps|libs)\//.test(n.callFrame.url)) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + weight);
    }
  }
  const entries = (m: Map<string, number>) =>
    [...m.entries()]
      .map(([k, ms]) => {
        const [name, where = ''] = k.split('\u0000');
        return { name, where: shortUrl(where), ms, share: ms / total };
      })
      .sort((a, b) => b.ms - a.ms);
  const callers = new Map<string, { chain: string; share: number }>();
  for (const [k, perKey] of chains) {
    const [chain, ms] = [...perKey.entries()].sort((a, b) => b[1] - a[1])[0];
    const [name, where = ''] = k.split('\u0000');
    callers.set(`${name} ${shortUrl(where)}`, { chain, share: ms / (self.get(k) ?? ms) });
  }
  return { totalMs: total, samples: counted, self: entries(self), callers, origins: entries(origins), inclusive: entries(inclusive) };
}

export function renderSummary(s: Summary, top = 20): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const table = (title: string, rows: Entry[], withWhere: boolean) => [
    `| ${title} | ${withWhere ? 'where | ' : ''}ms | share |`,
    `|---|${withWhere ? '---|' : ''}---:|---:|`,
    ...rows.map((e) => `| \`${e.name}\` | ${withWhere ? `${e.where} | ` : ''}${e.ms.toFixed(0)} | ${pct(e.share)} |`),
  ];
  return [
    `${s.samples} samples, ${(s.totalMs / 1000).toFixed(1)} s of CPU-profile time`,
    '',
    ...table('Top self time: function', s.self.slice(0, top), true),
    '',
    'Most frequent caller chain of the top 10 (share of that entry):',
    '',
    ...s.self.slice(0, 10).map((e, i) => {
      const c = s.callers.get(`${e.name} ${e.where}`);
      return `${i + 1}. \`${e.name}\` ← ${c && c.chain ? `${c.chain} (${pct(c.share)})` : '(no package or workspace caller)'}`;
    }),
    '',
    ...table('Self time by origin', s.origins.slice(0, 15), false),
    '',
    ...table('Inclusive time: workspace function', s.inclusive.slice(0, 15), true),
  ].join('\n');
}

export function summarizeFile(file: string, fromUs?: number, toUs?: number): Summary {
  return summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, fromUs, toUs);
}
