// Small pure building blocks shared by the domain: money, documents, Pix keys, BR Codes, dates,
// business days (holiday calendar) and amounts due.
export * from './money';
export * from './documents';
export * from './pix-key';
export * from './brcode';
export * from './dates';
export * from './business-days';
export * from './municipal-holidays';
export * from './amount-due';
export * from './payer-dates';
export * from './tenant';
export * from './canonical-json';
export * from './positions';
