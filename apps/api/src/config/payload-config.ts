import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

// Payload-location signing (ADR 11): the RSA key and certificate chain that sign the JWS a
// payer's bank reads through the QR code. Read once by loadConfig.

export interface PayloadSigningConfig {
  /** PEM private key (RSA, at least 2048 bits). */
  keyPem: string;
  /** PEM certificates, leaf first (the leaf's public key is the key's). */
  certChainPem: string[];
  /** The chain of the key signed with before a rotation: still published in the JWKS, never used to sign. */
  previousCertChainPem?: string[];
}

export interface PayloadSettings {
  /** From PAYLOAD_SIGNING_*; undefined in local mode without them (a key is made and kept in DATA_DIR). */
  signing?: PayloadSigningConfig;
  /** Local mode: where the sandbox payer reaches the location host (default: this very server). */
  sandboxLocationBaseUrl?: string;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM file, leaf first; throws with a reason when there is none or one does not parse. */
export function parseCertChain(pem: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw new Error('no PEM certificate in it');
  return blocks.map((b) => new X509Certificate(b));
}

const readText = (name: string, file: string, problems: string[]): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${name}: cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    return undefined;
  }
};

const rsaBits = (key: KeyObject) => (key.asymmetricKeyType === 'rsa' ? (key.asymmetricKeyDetails?.modulusLength ?? 0) : 0);

/** Reads PAYLOAD_SIGNING_KEY_FILE, _CERT_FILE (required in production) and _PREVIOUS_CERT_FILE; each bad value is a problem. */
export function loadPayloadSettings(env: Record<string, string | undefined>, local: boolean, problems: string[]): PayloadSettings {
  const keyFile = env.PAYLOAD_SIGNING_KEY_FILE || undefined;
  const certFile = env.PAYLOAD_SIGNING_CERT_FILE || undefined;
  const previousFile = env.PAYLOAD_SIGNING_PREVIOUS_CERT_FILE || undefined;
  const sandboxLocationBaseUrl = loadSandboxBase(env, local, problems);
  if (!keyFile && !certFile) {
    if (!local) problems.push('PAYLOAD_SIGNING_KEY_FILE and PAYLOAD_SIGNING_CERT_FILE are required in production mode (the RSA key and certificate, PEM, that sign payload locations)');
    if (previousFile) problems.push('PAYLOAD_SIGNING_PREVIOUS_CERT_FILE needs PAYLOAD_SIGNING_KEY_FILE and PAYLOAD_SIGNING_CERT_FILE');
    return { sandboxLocationBaseUrl };
  }
  if (!keyFile || !certFile) {
    problems.push('PAYLOAD_SIGNING_KEY_FILE and PAYLOAD_SIGNING_CERT_FILE go together');
    return { sandboxLocationBaseUrl };
  }
  const keyPem = readText('PAYLOAD_SIGNING_KEY_FILE', keyFile, problems);
  const certPem = readText('PAYLOAD_SIGNING_CERT_FILE', certFile, problems);
  let key: KeyObject | undefined;
  if (keyPem !== undefined) {
    try {
      key = createPrivateKey(keyPem);
      if (rsaBits(key) < 2048) problems.push(`PAYLOAD_SIGNING_KEY_FILE must hold an RSA private key of at least 2048 bits (RS256), got ${key.asymmetricKeyType} ${rsaBits(key) || ''}`.trim());
    } catch (error) {
      problems.push(`PAYLOAD_SIGNING_KEY_FILE: "${keyFile}" is not a PEM private key (${(error as Error).message})`);
    }
  }
  let chain: X509Certificate[] = [];
  if (certPem !== undefined) {
    try {
      chain = parseCertChain(certPem);
      if (key && !chain[0].checkPrivateKey(key)) problems.push('PAYLOAD_SIGNING_CERT_FILE: the first certificate is not the one of PAYLOAD_SIGNING_KEY_FILE (put the leaf first)');
    } catch (error) {
      problems.push(`PAYLOAD_SIGNING_CERT_FILE: "${certFile}" is not a PEM certificate chain (${(error as Error).message})`);
    }
  }
  let previous: X509Certificate[] | undefined;
  if (previousFile) {
    const pem = readText('PAYLOAD_SIGNING_PREVIOUS_CERT_FILE', previousFile, problems);
    try {
      if (pem !== undefined) previous = parseCertChain(pem);
      if (previous && previous[0].publicKey.asymmetricKeyType !== 'rsa') problems.push('PAYLOAD_SIGNING_PREVIOUS_CERT_FILE must hold an RSA certificate');
    } catch (error) {
      problems.push(`PAYLOAD_SIGNING_PREVIOUS_CERT_FILE: "${previousFile}" is not a PEM certificate chain (${(error as Error).message})`);
    }
  }
  if (keyPem === undefined || chain.length === 0) return { sandboxLocationBaseUrl };
  return {
    signing: { keyPem, certChainPem: chain.map((c) => c.toString()), ...(previous ? { previousCertChainPem: previous.map((c) => c.toString()) } : {}) },
    sandboxLocationBaseUrl,
  };
}

/** SANDBOX_LOCATION_BASE_URL: an http(s) origin, local mode only (the sandbox payer exists only there). */
function loadSandboxBase(env: Record<string, string | undefined>, local: boolean, problems: string[]): string | undefined {
  const raw = env.SANDBOX_LOCATION_BASE_URL || undefined;
  if (raw === undefined) return undefined;
  if (!local) {
    problems.push('SANDBOX_LOCATION_BASE_URL is for local mode (the sandbox payer is off in production)');
    return undefined;
  }
  try {
    const url = new URL(raw);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && url.origin === raw.replace(/\/$/, '')) return url.origin;
  } catch {
    /* reported below */
  }
  problems.push(`SANDBOX_LOCATION_BASE_URL must be an http(s) origin such as "http://localhost:8080", got "${raw}"`);
  return undefined;
}
