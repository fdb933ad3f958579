/*
 * The package's entry point, `require('n8n-nodes-haipay')`. n8n loads the node and credential classes through the
 * `n8n` field of package.json; this list is for code outside n8n: the same classes, and the signing a merchant's own
 * server needs to call HaiPay or to check its callbacks (docs/library.md).
 */
export { HaiPay } from './nodes/HaiPay/HaiPay.node';
export { HaiPayTrigger } from './nodes/HaiPayTrigger/HaiPayTrigger.node';
export { HaiPayApi } from './credentials/HaiPayApi.credentials';

export { signBody, verifyAnswer, verifyCallback } from './nodes/library/signing';
export type { SignedBody, SignOptions, VerifyOptions } from './nodes/library/signing';
export { verifyAcceptance } from './nodes/library/acceptance';
export type { AcceptanceOptions } from './nodes/library/acceptance';
export { SigningError } from './nodes/library/inputs';
export type { KeyInput } from './nodes/library/inputs';
export { KeyFormatError } from './nodes/shared/signing/keys';
export type { ArrayStyle } from './nodes/shared/signing/canonical';
