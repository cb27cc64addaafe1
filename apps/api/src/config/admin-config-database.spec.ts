import { loadAdminConfig } from './config';

// A README audit: `MODE=production npm run replay -- cobv` without DATABASE_URL was told that
// "receivers and clients are written there", the admin's reason, not the replay's.
describe('admin and replay configuration in production without DATABASE_URL', () => {
  it('names the database for what both commands use it for', () => {
    expect(() => loadAdminConfig({ MODE: 'production' })).toThrow(
      'DATABASE_URL is required in production mode: the database the API uses (its events and read models, its receivers and clients)',
    );
  });
});
