/** Injection token of the PayloadSigner built from the validated configuration. */
export const PAYLOAD_SIGNER = Symbol('PayloadSigner');
