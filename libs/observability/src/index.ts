// Request context for both apps' HTTP servers: correlation ids on answers and on every log line.
export * from './correlation';
export * from './request-context';
export * from './correlated-logger';
export * from './access-log';
export * from './startup-failure';
export * from './metrics';
export * from './with-timeout';
export * from './http-metrics';
export * from './service-metrics';
export * from './scrub';
export * from './pino-logger';
export * from './observability-settings';
export * from './integer-setting';
export * from './empty-settings';
export * from './graceful-shutdown';
export * from './listen';
export * from './misspelt-settings';
