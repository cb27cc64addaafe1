// Small pure building blocks shared by the domain: money, documents, Pix keys, BR Codes, dates.
export * from './money';
export * from './documents';
export * from './pix-key';
export * from './brcode';
export * from './dates';
export * from './amount-due';
export * from './tenant';
