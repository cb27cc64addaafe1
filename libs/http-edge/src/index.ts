// What both apps' HTTP servers do before a request reaches a controller: strict request parsing
// and protocol-level refusals, each answered as a contract problem.
export * from './strict-json-body';
export * from './charset';
export * from './edge-problem';
export * from './protocol-errors';
export * from './duplicate-headers';
export * from './closing';
export * from './http-edge';
export * from './undecodable-url';
export * from './http-problem.filter';
export * from './client-error-detail';
export * from './unavailable';
export * from './connection-limits';
