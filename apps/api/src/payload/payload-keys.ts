import 'reflect-metadata'; // @peculiar/x509's container needs the Reflect API before it loads
import { randomBytes, webcrypto } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as x509 from '@peculiar/x509';
import type { AppConfig, PayloadSigningConfig } from '../config/config';
import { parseCertChain } from '../config/payload-config';

export const payloadKeyFile = (dataDir: string) => path.resolve(dataDir, 'payload-signing.pem');

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;
const CERT_YEARS = 10;

/**
 * The key and certificate that sign payload locations: PAYLOAD_SIGNING_* when given (always in
 * production). Local mode without them makes an RSA 2048 key and a self-signed certificate for
 * the location host once, and keeps both in one DATA_DIR file (mode 0600), so payers that cached
 * the JWKS keep verifying after a restart.
 */
export async function resolvePayloadKeys(config: Pick<AppConfig, 'mode' | 'dataDir' | 'locationHost' | 'payload'>): Promise<PayloadSigningConfig> {
  if (config.payload.signing) return config.payload.signing;
  if (config.mode !== 'local') throw new Error('PAYLOAD_SIGNING_KEY_FILE and PAYLOAD_SIGNING_CERT_FILE are required in production mode');
  const file = payloadKeyFile(config.dataDir);
  const kept = readKept(file);
  if (kept) return kept;
  mkdirSync(path.dirname(file), { recursive: true });
  const made = await selfSigned(config.locationHost);
  // Written whole under another name, then linked into place: link fails if the file exists, so
  // two processes starting together cannot both win, and nobody reads a half-written file.
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, `${made.keyPem}${made.certChainPem.join('')}`, { mode: 0o600 });
  try {
    linkSync(temp, file);
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return readKept(file) ?? made;
  } finally {
    unlinkSync(temp);
  }
  return made;
}

function readKept(file: string): PayloadSigningConfig | undefined {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = /-----BEGIN PRIVATE KEY-----[\s\S]+?-----END PRIVATE KEY-----\n?/.exec(pem)?.[0];
  if (!key) throw new Error(`${file} holds no PEM private key: remove it to have a new key made`);
  return { keyPem: key.endsWith('\n') ? key : `${key}\n`, certChainPem: parseCertChain(pem).map((c) => c.toString()) };
}

async function selfSigned(locationHost: string): Promise<PayloadSigningConfig> {
  x509.cryptoProvider.set(webcrypto as never);
  const keys = (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const host = locationHost.replace(/:\d+$/, '');
  const notBefore = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex').replace(/^[89a-f]/, '1'),
    name: `CN=${host}, O=pix-cobv local sandbox`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + CERT_YEARS * 365 * 86_400_000),
    keys: keys as never,
    signingAlgorithm: RSA,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: host }]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END PRIVATE KEY-----\n`;
  return { keyPem, certChainPem: [cert.toString('pem').replace(/\r\n/g, '\n').replace(/\n?$/, '\n')] };
}
