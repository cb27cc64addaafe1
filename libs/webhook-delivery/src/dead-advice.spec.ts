import { DEAD_NOTIFICATION } from './claim-logger';

// A README audit (Operating it: does each line say what to do?): the line of a notification that
// became dead said "kept as dead" and nothing of how to send it again once the receiver is fixed.
describe('the line of a notification that became dead', () => {
  it('says how to send it again', () => {
    expect(DEAD_NOTIFICATION).toBe('retry schedule exhausted, kept as dead; once the receiver answers 2xx, send it again: POST /notifier/resend with its endToEndIds, or {"status":"dead"} and a period');
  });
});
