import { randomBytes } from 'node:crypto';
import { Client, Pool } from 'pg';

/** The PostgreSQL server tests use; provisioned by tools/test.js (127.0.0.1:5432 here). */
export function testServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, empty database per test file, so suites run in parallel without seeing each other. */
export async function createTestDatabase(prefix = 'pix_test'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testServerUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new Client({ connectionString: testServerUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * A pool for a test database. Dropping the database WITH (FORCE) can terminate a connection
 * that pool.end() is still closing; without a listener that becomes an unhandled 'error'.
 */
export function testPool(url: string, max = 10): Pool {
  const pool = new Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
