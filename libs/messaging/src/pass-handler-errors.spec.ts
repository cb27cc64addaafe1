import { lastValueFrom } from 'rxjs';
import { PassHandlerErrors } from './pass-handler-errors';

describe('PassHandlerErrors', () => {
  it("hands the handler's own error on (Nest's default made it 'Internal server error' and logged its stack at every retry)", async () => {
    const cause = new Error('the database system is shutting down');
    await expect(lastValueFrom(new PassHandlerErrors().catch(cause))).rejects.toBe(cause);
  });
});
