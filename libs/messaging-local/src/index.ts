export * from './in-process-bus';
