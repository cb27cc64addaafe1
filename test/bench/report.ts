import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import type { Pool } from 'pg';
import type { Point } from './load';

export interface Row {
  item: string;
  what: string;
  result: string;
  ceiling: string;
  /** measured / ceiling, when there is a ceiling. */
  ratio?: number;
  /**
   * A budget: a minimum ratio, a maximum ratio (latency against a ceiling), a maximum drop (ratio
   * = with ÷ without, e.g. a key's rate beside a slow key ÷ alone; `max` 0.1 = 10%), or a
   * maximum value for absolute budgets (lag).
   */
  budget?: { kind: 'min-ratio'; min: number } | { kind: 'max-ratio'; max: number } | { kind: 'max-drop'; max: number } | { kind: 'max-value'; max: number; value: number; unit: string };
}

const num = (n: number, digits = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a');
const ms = (n: number) => (n >= 100 ? num(n, 0) : n >= 10 ? num(n, 1) : num(n, 2));

/** "1,234 req/s · p50 3.21 / p99 9.80 ms" (with failures flagged: such a point is not valid). */
export function fmtPoint(p: Point, unit: string): string {
  const failed = p.failures > 0 ? ` · **${p.failures} failed**` : '';
  return `${num(p.rate)} ${unit} · p50 ${ms(p.p50)} / p99 ${ms(p.p99)} ms${failed}`;
}

export const fmtRate = (rate: number, unit: string) => `${num(rate)} ${unit}`;
export const fmtMs = ms;

function verdict(row: Row): string {
  const b = row.budget;
  if (!b) return '—';
  if (b.kind === 'min-ratio') {
    const min = Number.isInteger(b.min) ? b.min.toFixed(1) : String(b.min); // "≥ 1.0", as issues write it
    if (row.ratio === undefined || !Number.isFinite(row.ratio)) return `≥ ${min} **MISS** (not measured)`;
    const pass = row.ratio >= b.min;
    return `≥ ${min} ${pass ? 'PASS' : '**MISS**'} (${pass ? '+' : ''}${num(((row.ratio - b.min) / b.min) * 100, 0)}%)`;
  }
  if (b.kind === 'max-drop') {
    const limit = `drop ≤ ${num(b.max * 100, 0)}%`;
    if (row.ratio === undefined || !Number.isFinite(row.ratio)) return `${limit} **MISS** (not measured)`;
    const drop = 1 - row.ratio;
    return `${limit} ${drop <= b.max ? 'PASS' : '**MISS**'} (${drop >= 0 ? 'dropped' : 'rose'} ${num(Math.abs(drop) * 100, 1)}%)`;
  }
  if (b.kind === 'max-ratio') {
    if (row.ratio === undefined || !Number.isFinite(row.ratio)) return `≤ ${b.max} **MISS** (not measured)`;
    const pass = row.ratio <= b.max;
    return `≤ ${b.max} ${pass ? 'PASS' : '**MISS**'} (${pass ? '+' : ''}${num(((b.max - row.ratio) / b.max) * 100, 0)}%)`;
  }
  const pass = b.value < b.max;
  return `< ${b.max} ${b.unit} ${pass ? 'PASS' : '**MISS**'} (${ms(b.value)} ${b.unit})`;
}

export function renderTable(rows: Row[]): string {
  const lines = ['| # | Measurement | Result | Ceiling (same run) | Ratio | Budget |', '|---|---|---|---|---:|---|'];
  for (const r of rows) lines.push(`| ${r.item} | ${r.what} | ${r.result} | ${r.ceiling} | ${r.ratio === undefined ? '—' : num(r.ratio, 3)} | ${verdict(r)} |`);
  return lines.join('\n');
}

export async function describeMachine(pool: Pool): Promise<string[]> {
  const pg = await pool.query<{ v: string; sb: string; sc: string; mc: string }>(
    `SELECT current_setting('server_version') AS v, current_setting('shared_buffers') AS sb,
            current_setting('synchronous_commit') AS sc, current_setting('max_connections') AS mc`,
  );
  const s = pg.rows[0];
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const virtual = /^flags\s*:.*\bhypervisor\b/m.test(cpuinfo) ? ' (virtual machine)' : '';
  const run = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return '?'; // informational only
    }
  };
  const autocannon = run(process.execPath, ['-p', "require('autocannon/package.json').version"]);
  const commit = run('git', ['rev-parse', '--short', 'HEAD']);
  const changed = run('git', ['status', '--porcelain']).split('\n').filter(Boolean).length;
  const code = process.env.BENCH_CODE_LABEL ?? `commit ${commit}${changed && commit !== '?' ? ` plus ${changed} uncommitted path(s) in the working tree` : ''}`;
  return [
    `- Date: ${new Date().toISOString()}`,
    `- CPU: ${os.cpus()[0]?.model ?? 'unknown'}, ${os.cpus().length} cores${virtual}`,
    `- Memory: ${num(os.totalmem() / 2 ** 30, 1)} GiB`,
    `- OS: ${os.type()} ${os.release()} (${os.arch()})`,
    `- Node ${process.version}; autocannon ${autocannon}`,
    `- PostgreSQL ${s.v} (shared_buffers ${s.sb}, synchronous_commit ${s.sc}, max_connections ${s.mc}), same machine, TCP 127.0.0.1`,
    `- Code: ${code}, built by \`npm run bench\``,
    `- Load generator, API, bare Fastify, notifier and PostgreSQL all share these ${os.cpus().length} cores; load average at the start ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min).`,
  ];
}

/** Transactions committed or rolled back in the other databases of the cluster (noise indicator). */
export async function otherTransactions(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT coalesce(sum(xact_commit + xact_rollback), 0)::text AS n FROM pg_stat_database WHERE datname IS NOT NULL AND datname <> current_database()`,
  );
  return Number(rows[0].n);
}

const BEGIN = '<!-- bench:latest:begin -->';
const END = '<!-- bench:latest:end -->';

/** Replaces the generated "Latest run" block of docs/benchmarks.md, keeping everything else (e.g. recorded baselines). */
export function writeReport(file: string, block: string): void {
  const generated = `${BEGIN}\n${block.trim()}\n${END}`;
  const header = '# Benchmarks\n\nGenerated by `npm run bench` (code in `test/bench/`). The block below is rewritten by every run;\nsections outside it are kept.\n\n';
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  const next = at >= 0 && end > at ? current.slice(0, at) + generated + current.slice(end + END.length) : (current || header) + `${generated}\n`;
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}
