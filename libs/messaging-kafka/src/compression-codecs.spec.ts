import { CompressionCodecs, CompressionTypes } from 'kafkajs';
import { COMPRESSION_CODECS, registerCompressionCodecs } from './compression-codecs';

// What the codecs must read: 8 lines like a cash-in's, compressed by the reference C tools (not by
// the libraries under test). compression.int.ts reads what Kafka's own Java producer writes.
const PLAIN = Array.from({ length: 8 }, (_, i) => JSON.stringify({ endToEndId: `E12345678202611221500abcdefghij${i}`, valor: '123.45' })).join('\n');
/** `lz4 -9` 1.9.4: one LZ4 frame with a content checksum. */
const LZ4 =
  'BCJNGGRAp3AAAAD/NHsiZW5kVG9FbmRJZCI6IkUxMjM0NTY3ODIwMjYxMTIyMTUwMGFiY2RlZmdoaWowIiwidmFsb3IiOiIxMjMuNDUifQpDABsfMUMALx8yQwAvHzNDAC8fNEMALx81QwAvHzZDAC8aN0MAUC40NSJ9AAAAAIxmFzE=';
/** `zstd -19` 1.5.4. */
const ZSTD = 'KLUv/WQXAe0CAKJEERiAqw76QjoyHEaiCdY5JYCsECLJCR2spD1stUq8QPRWQuJ9uzOb9zy4MouSIBEexlPtZd5drDyw1SrxurdDAko3CyjjoQggwHMHiVy6S+wluXSX2C3JsGESM21pvfs=';

describe('compression codecs', () => {
  it('reads LZ4 frames and zstd into Buffers (kafkajs decodes records with Buffer methods)', async () => {
    for (const [codec, fixture] of [[COMPRESSION_CODECS.lz4, LZ4], [COMPRESSION_CODECS.zstd, ZSTD]] as const) {
      const out = await codec.decompress(Buffer.from(fixture, 'base64'));
      expect(Buffer.isBuffer(out)).toBe(true);
      expect(out.toString('utf8')).toBe(PLAIN);
    }
  });

  it('reads snappy raw and in the xerial framing Java producers write (chunks of at most 32 KiB each)', async () => {
    const big = Buffer.from(PLAIN.repeat(200)); // > 100 KiB: several xerial chunks
    const raw = await COMPRESSION_CODECS.snappy.compress({ buffer: big });
    expect((await COMPRESSION_CODECS.snappy.decompress(raw)).equals(big)).toBe(true);
    const chunks = [];
    for (let i = 0; i < big.length; i += 32 * 1024) chunks.push(await COMPRESSION_CODECS.snappy.compress({ buffer: big.subarray(i, i + 32 * 1024) }));
    const header = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]); // magic, version 1, compatible 1
    const sized = chunks.flatMap((c) => [Buffer.from([c.length >>> 24, (c.length >>> 16) & 0xff, (c.length >>> 8) & 0xff, c.length & 0xff]), c]);
    expect((await COMPRESSION_CODECS.snappy.decompress(Buffer.concat([header, ...sized]))).equals(big)).toBe(true);
  });

  it('refuses to compress lz4 or zstd, saying so (we never publish compressed)', async () => {
    await expect(COMPRESSION_CODECS.lz4.compress({ buffer: Buffer.from(PLAIN) })).rejects.toThrow('lz4 compression is not supported here');
    await expect(COMPRESSION_CODECS.zstd.compress({ buffer: Buffer.from(PLAIN) })).rejects.toThrow('zstd compression is not supported here');
  });

  it('names the codec when a batch cannot be decompressed', async () => {
    const junk = Buffer.from('not compressed at all');
    await expect(COMPRESSION_CODECS.lz4.decompress(junk)).rejects.toThrow(/^cannot decompress a lz4 batch: /);
    await expect(COMPRESSION_CODECS.zstd.decompress(junk)).rejects.toThrow(/^cannot decompress a zstd batch: /);
    await expect(COMPRESSION_CODECS.snappy.decompress(junk)).rejects.toThrow(/^cannot decompress a snappy batch: /);
  });

  it('registers snappy, lz4 and zstd with kafkajs beside its own gzip', () => {
    registerCompressionCodecs();
    registerCompressionCodecs(); // twice: the same
    expect(CompressionCodecs[CompressionTypes.Snappy]()).toBe(COMPRESSION_CODECS.snappy);
    expect(CompressionCodecs[CompressionTypes.LZ4]()).toBe(COMPRESSION_CODECS.lz4);
    expect(CompressionCodecs[CompressionTypes.ZSTD]()).toBe(COMPRESSION_CODECS.zstd);
    expect(typeof CompressionCodecs[CompressionTypes.GZIP]().decompress).toBe('function');
  });
});
