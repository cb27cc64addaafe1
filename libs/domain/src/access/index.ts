// Who may call the API: receivers (tenants) with their Pix keys, key claims, OAuth2 clients.
export * from './errors';
export * from './scopes';
export * from './receiver';
export * from './key-claim';
export * from './client';
