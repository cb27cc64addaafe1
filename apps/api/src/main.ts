import { Logger } from '@nestjs/common';
import { PostgresEventStore, type EventStore } from '@pix/event-store';
import { beginDraining } from '@pix/http-edge';
import { assertCanListen, exitOnStartupFailure, explainListenFailure, misspeltSettingLine, misspeltSettings, onShutdownSignals, recordingReads } from '@pix/observability';
import { ConfigError, loadConfig, type AppConfig } from './config/config';
import { startDatabase } from './infrastructure/database';
import { limitHeapGrowth } from './infrastructure/heap-growth';
import { EVENT_STORE } from './infrastructure/tokens';
import { tlsMode } from './http/tls';
import { apiLogger, createApiApp } from './server';

const TLS_STATES = {
  off: 'TLS off: plain HTTP (in production, terminate TLS in front of this process or set TLS_CERT_FILE/TLS_KEY_FILE)',
  tls: 'TLS on; mTLS off (no client certificate required)',
  mtls: 'TLS on; mTLS on: clients need a certificate signed by TLS_CLIENT_CA_FILE',
};

async function main(): Promise<void> {
  limitHeapGrowth();
  let config: AppConfig;
  const settings = recordingReads(process.env);
  try {
    config = loadConfig(settings.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  Logger.overrideLogger(apiLogger(config)); // JSON from the first line in production
  const logger = new Logger('Main');
  for (const m of misspeltSettings(process.env, settings.read)) logger.warn(misspeltSettingLine(m));
  const listenOn = { port: config.port, host: config.host, portSetting: 'PORT' };
  await assertCanListen(listenOn);
  const database = await startDatabase(config, (m) => logger.log(m));
  // A dead embedded PostgreSQL is said once and stops the API (exit 1, below), instead of every
  // worker logging connection errors for ever. During start-up the start fails by itself.
  let databaseLost = false;
  database.onLost((message) => {
    databaseLost = true;
    logger.error(message);
  });
  let app: Awaited<ReturnType<typeof createApiApp>> | undefined;
  try {
    app = await createApiApp({ config, databaseUrl: database.url });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // The embedded PostgreSQL, in its own process group, is only signalled as this process exits:
    // a start that fails after it (a port already taken, say) waits for it to stop.
    await app?.close().catch(() => undefined);
    await database.stop().catch(() => undefined);
    throw explainListenFailure(error, listenOn);
  }
  const base = `${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}${config.basePath}`;
  const r = config.recebedor;
  // On every interface, the URL to try from this machine is localhost's; the line says where it listens too.
  const listening = config.host === '0.0.0.0' ? ` (listening on every interface, 0.0.0.0:${config.port})` : '';
  logger.log(`${config.mode} mode: API Pix at ${base}${listening} (health: ${config.tls ? 'https' : 'http'}://localhost:${config.port}/health)`);
  if (r) {
    const { localClientId: id, localClientSecret: secret } = config.auth;
    logger.log(`receiver: ${r.nome}, ${r.cnpj ? `CNPJ ${r.cnpj}` : `CPF ${r.cpf}`}, ${r.logradouro}, ${r.cidade}-${r.uf}, CEP ${r.cep}; Pix key(s): ${r.chaves.join(', ')}`);
    logger.log(`OAuth2 client: client_id ${id}, client_secret ${secret} (every scope). Get a token:`);
    logger.log(`  curl -s -X POST ${base.slice(0, -config.basePath.length)}/oauth/token -u '${id}:${secret}' -d grant_type=client_credentials`);
    logger.log(`sandbox dashboard: ${base.slice(0, -config.basePath.length)}/sandbox (charges, QR codes, the payer and the webhook log); API docs: ${base.slice(0, -config.basePath.length)}/docs`);
  } else logger.log('receivers and OAuth2 clients: npm run admin -- receiver create … / key add … / client create … (npm run admin for help)');
  logger.log(TLS_STATES[tlsMode(config.tls)]);
  logger.log(config.rateLimit.perSecond > 0 ? `rate limit: ${config.rateLimit.perSecond}/s per client and per address, bursts of ${config.rateLimit.burst}` : 'rate limit: off');
  if (config.delivery.allowPrivateTargets)
    logger.warn(`webhook URLs may point at localhost and private addresses${config.mode === 'local' ? ' (local mode); http allowed' : ' (WEBHOOK_ALLOW_PRIVATE_TARGETS=true)'}`);
  const shutDown = onShutdownSignals({
    drainMs: config.shutdownDrainMs,
    // First the delay: readiness 503 and every answer closing its connection, so a load balancer
    // stops routing here while the port is still open; only then does the HTTP server close.
    delayMs: config.shutdownDelayMs,
    beginDelay: () => beginDraining(app.getHttpAdapter().getInstance()),
    log: (m) => logger.log(m),
    warn: (m) => logger.warn(m),
    // Nest closes the HTTP server first (new requests get 503, in-flight ones finish), then
    // the batch processor, consumers and projections; the embedded database goes last, always
    // (in its own process group, Ctrl-C does not reach it: it stops here, after the drain).
    steps: [() => app.close()],
    finally: async () => {
      // A drain that ran out gets here with the store's LISTEN connection open: closed first, so
      // its loss to our own stop is not reported as an outage (nor retried). Closing twice is a no-op.
      const store = app.get<EventStore>(EVENT_STORE);
      if (store instanceof PostgresEventStore) await store.close().catch(() => undefined);
      await database.stop();
    },
    failed: () => databaseLost,
    exit: (code) => process.exit(databaseLost ? 1 : code),
  });
  database.onLost(() => shutDown('embedded PostgreSQL gone'));
}

// Configuration and environment failures print one line and exit 2; bugs keep their stack.
main().catch(exitOnStartupFailure);
