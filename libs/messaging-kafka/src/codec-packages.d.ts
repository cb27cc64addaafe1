// Types for the two codec packages that ship none (compression-codecs.ts uses only these).

declare module 'lz4js' {
  /** Decompresses one LZ4 frame. */
  export function decompress(src: Uint8Array, maxSize?: number): Uint8Array;
}

declare module 'kafkajs-snappy' {
  /** A kafkajs codec; decompress reads raw snappy and the xerial framing Java producers write. */
  function SnappyCodec(): { compress(encoder: { buffer: Buffer }): Promise<Buffer>; decompress(compressed: Buffer): Promise<Buffer> };
  export = SnappyCodec;
}
