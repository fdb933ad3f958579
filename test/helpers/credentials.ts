import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { TEST_KEYS } from './keys';

/** The credential a merchant would create for one of the sandbox's App IDs (test-only keys). */
export function sandboxCredential(sandbox: Sandbox, appId: number, overrides: ICredentialDataDecryptedObject = {}): ICredentialDataDecryptedObject {
	const merchant = sandbox.merchants.find((candidate) => candidate.appId === appId);
	if (merchant === undefined) throw new Error(`sandbox has no merchant ${appId}`);
	return {
		environment: 'custom',
		baseUrl: sandbox.baseUrl,
		appId,
		currency: merchant.currency,
		secretKey: merchant.secretKey,
		privateKey: TEST_KEYS.merchantPkcs8,
		haipayPublicKey: TEST_KEYS.platformPublic,
		arrayStyle: 'json',
		...overrides,
	};
}
