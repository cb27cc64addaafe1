import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { EventStoreDbEventStore, PostgresEventStore, PostgresSnapshotStore, withOwnPool, type EventStore } from '@pix/event-store';
import type { AppConfig } from '../config/config';
import { systemClock, type Clock } from '../shared/ports';
import { Readiness } from '../health/readiness';
import { SequenceLocationIds } from './location-ids';
import { migrateApiSchema } from './schema';
import { LIVE_PROJECTIONS, Projections } from './projections';
import { enableInlineProjections, inlineOn } from '@pix/read-models';
import { AccessDirectory } from '../access/access-directory';
import { resolveTokenKey } from '../access/token/token-key';
import { TokenSigner } from '../access/token/token-signer';
import { ACCESS_DIRECTORY, CLOCK, PROJECTIONS, CONFIG, EVENT_STORE, LOCATION_IDS, READ_DB, READINESS, RECEIVER_DIRECTORY, SCHEMA, SNAPSHOTS, TOKEN_SIGNER } from './tokens';

export interface InfrastructureOptions {
  config: AppConfig;
  /** Resolved PostgreSQL URL (the embedded server's in local mode). */
  databaseUrl: string;
  clock?: Clock;
}

/** The composition root: builds adapters from configuration; nothing else reads settings. */
@Global()
@Module({})
export class InfrastructureModule implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Infrastructure');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_DB) private readonly pool: Pool,
    @Inject(PROJECTIONS) private readonly projections: Projections,
  ) {}

  static forRoot(options: InfrastructureOptions): DynamicModule {
    const { config } = options;
    return {
      module: InfrastructureModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        {
          provide: READ_DB,
          useFactory: () => {
            // A connect that hangs (host gone, SYN dropped) fails after a bound, so the caller gets a 503, not a wait;
            // so does a statement PostgreSQL stops answering (a frozen server, a black-holed network: TCP
            // noticed neither for many minutes, and every request waited with it). Its connection is dropped.
            // application_name: pg_stat_activity and the server's logs say which app a backend serves (a URL's own wins).
            const pool = new Pool({ connectionString: options.databaseUrl, max: 30, connectionTimeoutMillis: 5000, query_timeout: config.databaseQueryTimeoutMs, keepAlive: true, application_name: 'pix-api' });
            pool.on('error', () => undefined); // a dropped idle connection is replaced on next use
            return pool;
          },
        },
        // All start-up DDL in one step under one lock: instances starting together take turns.
        // On a connection of its own, without the statement deadline: building an index on a large
        // table, or waiting for another instance's migrations, takes as long as it takes.
        { provide: SCHEMA, useFactory: () => withOwnPool(options.databaseUrl, 'pix-api', migrateApiSchema) },
        { provide: READINESS, useFactory: () => new Readiness() },
        {
          provide: EVENT_STORE,
          inject: [READ_DB, SCHEMA],
          useFactory: async (pool: Pool): Promise<EventStore> => {
            if (config.eventStoreConnectionString) return EventStoreDbEventStore.fromConnectionString(config.eventStoreConnectionString);
            // Read models are inline: only other processes' batch processors wait for a wake-up (they also poll).
            const store = await PostgresEventStore.create({ pool, logger: new Logger('EventStore'), notifyOthers: (streamId) => streamId.startsWith('lotecobv-') });
            // Before anything can append: the inline read models catch up, then every append writes them (ADR 14).
            await enableInlineProjections(store, pool, inlineOn(store, LIVE_PROJECTIONS));
            return store;
          },
        },
        { provide: SNAPSHOTS, inject: [READ_DB, SCHEMA], useFactory: (pool: Pool) => new PostgresSnapshotStore(pool) },
        { provide: LOCATION_IDS, inject: [READ_DB, SCHEMA], useFactory: (pool: Pool) => SequenceLocationIds.create(pool, config.locationHost) },
        { provide: PROJECTIONS, inject: [EVENT_STORE, READ_DB], useFactory: (store: EventStore, pool: Pool) => new Projections(store, pool) },
        // Receivers, keys and clients from their streams, cached for AUTH_CACHE_MS.
        { provide: ACCESS_DIRECTORY, inject: [EVENT_STORE], useFactory: (store: EventStore) => new AccessDirectory(store, config.auth.directoryCacheMs) },
        { provide: RECEIVER_DIRECTORY, useExisting: ACCESS_DIRECTORY },
        { provide: TOKEN_SIGNER, useFactory: () => new TokenSigner(resolveTokenKey(config), undefined, config.auth.previousTokenKeys) },
      ],
      exports: [CONFIG, CLOCK, READ_DB, READINESS, EVENT_STORE, SNAPSHOTS, LOCATION_IDS, PROJECTIONS, RECEIVER_DIRECTORY, ACCESS_DIRECTORY, TOKEN_SIGNER],
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.start();
    this.logger.log(`event store: ${this.store.name}; projections from checkpoints ${JSON.stringify(this.projections.checkpoints())}`);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.projections.stop();
    await this.store.close();
    await this.pool.end();
  }
}
