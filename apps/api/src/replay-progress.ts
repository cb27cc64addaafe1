import { Presets, SingleBar } from 'cli-progress';

export interface ReplayReporter {
  update(events: number, eventsPerSecond: number): void;
  done(line: string): void;
}

/**
 * What `npm run replay` shows: on a terminal a bar with the total, rate and ETA (cli-progress);
 * otherwise (a log file, a CI job) one plain line a second.
 */
export function replayReporter(name: string, total: number | undefined, out: NodeJS.WriteStream = process.stdout): ReplayReporter {
  if (out.isTTY) {
    const bar = new SingleBar(
      {
        stream: out,
        format: `[replay ${name}] {bar} {percentage}% | {value}/{total} events | {rate} events/s | ETA {eta_formatted}`,
        hideCursor: true,
        etaBuffer: 50,
      },
      Presets.shades_classic,
    );
    // Without a known total (EventStoreDB), the total follows what has been read.
    bar.start(total ?? 0, 0, { rate: 0 });
    return {
      update: (events, rate) => {
        if (total === undefined || events > total) bar.setTotal(Math.max(events, total ?? 0));
        bar.update(events, { rate });
      },
      done: (line) => {
        bar.stop();
        out.write(`${line}\n`);
      },
    };
  }
  let last = 0;
  return {
    update: (events, rate) => {
      if (Date.now() - last < 1000) return;
      last = Date.now();
      out.write(`[replay ${name}] ${events}${total !== undefined ? `/${total}` : ''} events, ${rate} events/s\n`);
    },
    done: (line) => out.write(`${line}\n`),
  };
}
