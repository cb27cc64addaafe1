// Request context for both apps' HTTP servers: correlation ids on answers and on every log line.
export * from './correlation';
export * from './request-context';
export * from './correlated-logger';
export * from './access-log';
export * from './startup-failure';
