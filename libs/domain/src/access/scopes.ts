/** The scopes of the official contract's `security` blocks for the endpoints we serve. */
export const PIX_SCOPES = ['cobv.write', 'cobv.read', 'lotecobv.write', 'lotecobv.read', 'webhook.write', 'webhook.read', 'pix.read', 'pix.write', 'payloadlocation.write', 'payloadlocation.read'] as const;
export type PixScope = (typeof PIX_SCOPES)[number];

export const isPixScope = (s: string): s is PixScope => (PIX_SCOPES as readonly string[]).includes(s);

/** Deduplicated and in PIX_SCOPES order, so equal sets compare equal and print the same. */
export const canonicalScopes = (scopes: readonly string[]): PixScope[] => PIX_SCOPES.filter((s) => scopes.includes(s));
