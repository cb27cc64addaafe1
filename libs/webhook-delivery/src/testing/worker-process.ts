/**
 * A DeliveryWorker in its own OS process, for the multi-process test. Arguments: database URL,
 * JSON map chave -> webhook URL, JSON partial DeliveryConfig. Prints "ready" once connected,
 * starts on a "go" line on stdin, and on SIGTERM stops (awaiting in-flight work) and prints
 * "delivered <n>".
 */
import { Pool } from 'pg';
import { DeliveryWorker } from '../delivery-worker';
import { systemClock } from '../types';

async function main(): Promise<void> {
  const [databaseUrl, urlsJson, configJson] = process.argv.slice(2);
  const urls = new Map(Object.entries(JSON.parse(urlsJson) as Record<string, string>));
  const pool = new Pool({ connectionString: databaseUrl, max: 10 });
  await pool.query('SELECT 1');
  let delivered = 0;
  const logger = {
    log: (m: string) => {
      if (m.endsWith('; delivered')) delivered += 1;
    },
    error: (m: string) => process.stderr.write(`${m}\n`),
  };
  const worker = new DeliveryWorker(pool, { urlFor: async (chave) => urls.get(chave) }, JSON.parse(configJson), systemClock, logger);
  process.once('SIGTERM', () => {
    void worker
      .stop()
      .then(() => pool.end())
      .then(() => {
        process.stdout.write(`delivered ${delivered}\n`);
        process.exit(0);
      });
  });
  process.stdin.once('data', () => void worker.start());
  process.stdout.write('ready\n');
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
