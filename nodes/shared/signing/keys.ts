import { createPrivateKey, createPublicKey, type KeyObject } from 'crypto';

/**
 * HaiPay hands keys around as bare base64 (PEM armour and line breaks stripped); merchants paste them as PEM,
 * as base64, with line breaks, or with literal "\n" sequences copied out of JSON. All of those are accepted.
 */

export class KeyFormatError extends Error {
	constructor(
		readonly keyLabel: string,
		readonly triedFormats: string[],
	) {
		super(
			`The ${keyLabel} could not be read. Tried: ${triedFormats.join(', ')}. ` +
				'Paste the key as PEM (with its BEGIN/END lines) or as the bare base64 text, without other characters.',
		);
		this.name = 'KeyFormatError';
	}
}

const PEM_ARMOUR = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/;

interface KeyText {
	pem?: string;
	der?: Buffer;
}

function normalise(text: string): KeyText {
	const unescaped = text.replace(/\\n/g, '\n').replace(/\\r/g, '').trim();
	const armoured = PEM_ARMOUR.exec(unescaped);
	if (armoured) {
		const body = armoured[2].replace(/\s+/g, '');
		const lines = body.match(/.{1,64}/g) ?? [];
		return { pem: `-----BEGIN ${armoured[1]}-----\n${lines.join('\n')}\n-----END ${armoured[1]}-----\n` };
	}
	const bare = unescaped.replace(/\s+/g, '');
	if (bare === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(bare)) return {};
	return { der: Buffer.from(bare, 'base64') };
}

type Attempt = { format: string; load: () => KeyObject };

function firstThatLoads(label: string, attempts: Attempt[]): KeyObject {
	for (const attempt of attempts) {
		try {
			const key = attempt.load();
			if (key.asymmetricKeyType === 'rsa') return key;
		} catch {
			// The next format is tried; the error names every format once all have failed.
		}
	}
	throw new KeyFormatError(
		label,
		attempts.map((attempt) => attempt.format),
	);
}

/** The formats each kind of key is tried in: PEM as armoured, bare base64 as either DER encoding. */
const FORMATS = {
	private: { pem: 'PEM (PKCS#8 or PKCS#1)', der: { 'base64 PKCS#8': 'pkcs8', 'base64 PKCS#1': 'pkcs1' } },
	public: {
		pem: 'PEM (SPKI or PKCS#1)',
		der: { 'base64 X.509 SubjectPublicKeyInfo': 'spki', 'base64 PKCS#1': 'pkcs1' },
	},
} as const;

function attempts(kind: 'private' | 'public', text: KeyText): Attempt[] {
	const create = kind === 'private' ? createPrivateKey : createPublicKey;
	const { pem, der } = text;
	if (pem !== undefined) return [{ format: FORMATS[kind].pem, load: () => create(pem) }];
	if (der === undefined)
		return [
			{ format: 'PEM', load: fail },
			{ format: 'base64', load: fail },
		];
	return Object.entries(FORMATS[kind].der).map(([format, type]) => ({
		format,
		load: () => create({ key: der, format: 'der', type: type as 'pkcs1' }),
	}));
}

function fail(): KeyObject {
	throw new Error('not a key');
}

export function parsePrivateKey(text: string, label = 'merchant private key'): KeyObject {
	return firstThatLoads(label, attempts('private', normalise(text)));
}

export function parsePublicKey(text: string, label = 'HaiPay public key'): KeyObject {
	return firstThatLoads(label, attempts('public', normalise(text)));
}
