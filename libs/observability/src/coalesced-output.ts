/**
 * Standard output written once per turn of the event loop: every log line of that turn in one
 * write. stdout to a pipe or file is synchronous in Node, so one write per access line was one
 * system call per request (issue 11's profile). Idle, a line still goes out at the end of the
 * turn it was logged in; at exit (process.exit, an uncaught error) what is pending is written
 * synchronously first. Only a kill -9 within the turn can lose lines.
 */
export interface LineSink {
  write(line: string): boolean;
}

export function coalescedOutput(out: NodeJS.WritableStream): LineSink {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    out.write(chunk);
  };
  process.once('exit', flush);
  return {
    write(line: string): boolean {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return true;
    },
  };
}

let stdout: LineSink | undefined;
/** The one coalesced sink over process.stdout. */
export const coalescedStdout = (): LineSink => (stdout ??= coalescedOutput(process.stdout));
