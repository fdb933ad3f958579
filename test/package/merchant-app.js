/*
 * A merchant's program using the packed package from a clean folder (test/package/tarball.test.ts copies it there).
 * Plain CommonJS run by plain `node`, as a merchant's server would run it: nothing of the repository is reachable.
 * It reads its cases as JSON on stdin and writes what it found as JSON on stdout.
 */
const { readFileSync } = require('fs');

const haipay = require('n8n-nodes-haipay');

const input = JSON.parse(readFileSync(0, 'utf8'));

/** A promise's outcome as data: its value, or the error's name and message. */
async function outcome(promise) {
	try {
		return { value: await promise };
	} catch (error) {
		return { error: `${error.name}: ${error.message}` };
	}
}

function resolves(name) {
	try {
		return require.resolve(name);
	} catch {
		return null;
	}
}

async function main() {
	const { secret, merchant, platform } = input;
	const signing = { secretKey: secret, privateKey: merchant.privateKey };
	const verifying = { secretKey: secret, haipayPublicKey: platform.publicKey };
	const found = {
		resolved: {
			package: resolves('n8n-nodes-haipay'),
			peer: resolves('n8n-workflow'),
			repositoryOnly: resolves('typescript'),
		},
		exports: Object.keys(haipay).sort(),
		classes: {
			node: new haipay.HaiPay().description.name,
			trigger: new haipay.HaiPayTrigger().description.name,
			credential: new haipay.HaiPayApi().name,
			// The classes n8n loads through package.json's `n8n` field are the very ones exported here.
			sameAsN8n:
				haipay.HaiPay === require('n8n-nodes-haipay/dist/nodes/HaiPay/HaiPay.node').HaiPay &&
				haipay.HaiPayTrigger ===
					require('n8n-nodes-haipay/dist/nodes/HaiPayTrigger/HaiPayTrigger.node').HaiPayTrigger &&
				haipay.HaiPayApi === require('n8n-nodes-haipay/dist/credentials/HaiPayApi.credentials').HaiPayApi,
		},
		payout: await outcome(haipay.signBody(input.payout, { ...signing, appId: input.appId })),
		vectors: [],
		callbacks: {},
		answers: {},
	};
	for (const vector of input.vectors) {
		const options = {
			appId: vector.body.appId,
			secretKey: vector.secret,
			privateKey: merchant.privateKeyBase64,
			arrayStyle: vector.arrayStyle,
		};
		found.vectors.push(await outcome(haipay.signBody(vector.body, options)));
	}
	for (const [name, body] of Object.entries(input.callbacks))
		found.callbacks[name] = await outcome(haipay.verifyCallback(body, verifying));
	found.callbacks.parsedDecimal = await outcome(haipay.verifyCallback(JSON.parse(input.callbacks.decimal), verifying));
	found.callbacks.buffer = await outcome(haipay.verifyCallback(Buffer.from(input.callbacks.genuine), verifying));
	for (const [name, answer] of Object.entries(input.answers))
		found.answers[name] = await outcome(haipay.verifyAnswer(answer, verifying));
	found.answers.text = await outcome(haipay.verifyAnswer(JSON.stringify(input.answers.envelope), verifying));
	found.errors = {
		badPublicKey: await outcome(
			haipay.verifyCallback(input.callbacks.genuine, { ...verifying, haipayPublicKey: input.notAKey }),
		),
		badPrivateKey: await outcome(
			haipay.signBody(input.payout, { ...signing, appId: input.appId, privateKey: input.notAKey }),
		),
		noSecret: await outcome(haipay.verifyAnswer(input.answers.envelope, { haipayPublicKey: platform.publicKey })),
		badAppId: await outcome(haipay.signBody(input.payout, { ...signing, appId: 'TZS' })),
		ambiguous: await outcome(
			haipay.signBody({ ...input.payout, name: 'Amina&status=2' }, { ...signing, appId: input.appId }),
		),
	};
	// What the node refuses to sign, the library refuses too: a field that reads as `key`, and numbers JSON would not
	// carry as meant (made here: JSON on stdin cannot carry them either).
	const numbers = { unsafe: 2 ** 53 + 1, infinite: Number('1e400'), residue: 0.1 + 0.2, nested: [1, Number.NaN] };
	found.refused = {};
	for (const name of input.reservedNames)
		found.refused[name] = await outcome(
			haipay.signBody({ ...input.payout, [name]: 'x' }, { ...signing, appId: input.appId }),
		);
	for (const [name, value] of Object.entries(numbers))
		found.refused[name] = await outcome(
			haipay.signBody({ ...input.payout, fee: value }, { ...signing, appId: input.appId }),
		);
	found.acceptances = {};
	for (const [name, answer] of Object.entries(input.acceptances)) {
		found.acceptances[name] = {
			signed: await outcome(haipay.verifyAnswer(answer, verifying)),
			// Called inside the promise, so that a package without verifyAcceptance reports it instead of stopping here.
			accepted: await outcome(
				Promise.resolve().then(() => haipay.verifyAcceptance(answer, { ...verifying, orderId: 'PO-1' })),
			),
		};
	}
	process.stdout.write(JSON.stringify(found));
}

main().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exitCode = 1;
});
