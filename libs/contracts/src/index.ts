// Public surface of the contracts library: what goes over the wire of the API Pix (cobv) and how
// incoming bodies and queries are shape-checked. Depends only on class-validator/-transformer.
export * from './problem';
export * from './problem-error';
export * from './validation/strict-json';
export * from './validation/patterns';
export * from './validation/validate-body';
export * from './validation/own-members';
export * from './validation/query-values';
export * from './validation/expected-format';
export * from './cobv/cobv-request.dto';
export * from './cobv/cobv-list-query';
export * from './cobv/cobv-response';
export * from './loc/loc-request';
export * from './loc/loc-response';
export * from './lotecobv/lotecobv-request';
export * from './pix/cash-in-message';
export * from './pix/correlation';
export * from './webhook/webhook-request';
export * from './paginacao';
export * from './echo-timestamp';
