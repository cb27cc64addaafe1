import { decompress as zstdDecompress } from 'fzstd';
import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import SnappyCodec from 'kafkajs-snappy';
import { decompress as lz4Decompress } from 'lz4js';

/** kafkajs's codec shape (compress is handed kafkajs's Encoder; only its bytes matter). */
interface Codec {
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
  decompress(compressed: Buffer): Promise<Buffer>;
}

/**
 * A PSP core's producer picks the compression (`compression.type`), not us: kafkajs ships only
 * gzip, and a batch in any other codec made it throw on every fetch, so the consumer crashed and
 * restarted forever with nothing consumed on any partition. We only read these codecs; we never
 * publish compressed. Snappy is kafkajs-snappy (xerial framing, as Java producers write it); LZ4
 * (the frame format) and zstd are decompression-only, so publishing with them fails loudly.
 */
export const COMPRESSION_CODECS: Record<'snappy' | 'lz4' | 'zstd', Codec> = {
  snappy: named('snappy', SnappyCodec()),
  lz4: named('lz4', decompressOnly('lz4', lz4Decompress)),
  zstd: named('zstd', decompressOnly('zstd', zstdDecompress)),
};

/**
 * Registers snappy, lz4 and zstd with kafkajs beside its own gzip. kafkajs's codec table is
 * process-wide, so this covers every client of the process; repeating it changes nothing.
 */
export function registerCompressionCodecs(): void {
  CompressionCodecs[CompressionTypes.Snappy] = () => COMPRESSION_CODECS.snappy;
  CompressionCodecs[CompressionTypes.LZ4] = () => COMPRESSION_CODECS.lz4;
  CompressionCodecs[CompressionTypes.ZSTD] = () => COMPRESSION_CODECS.zstd;
}

function decompressOnly(name: string, decompress: (compressed: Uint8Array) => Uint8Array): Codec {
  return {
    compress: async () => {
      throw new Error(`${name} compression is not supported here (only reading ${name}-compressed messages is)`);
    },
    // kafkajs decodes records with Buffer methods; these libraries return a plain Uint8Array (no copy).
    decompress: async (compressed) => {
      const bytes = decompress(compressed);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}

/** A failed decompression names its codec: the consumer's crash line is all an operator sees. */
function named(name: string, codec: Codec): Codec {
  return {
    compress: (encoder) => codec.compress(encoder),
    decompress: async (compressed) => {
      try {
        return await codec.decompress(compressed);
      } catch (error) {
        throw new Error(`cannot decompress a ${name} batch: ${(error as Error).message}`);
      }
    },
  };
}
