export * from './pix';
