/**
 * USDT payouts name their Network (node version 4), which decides the wallet address check: TRON's Base58Check and
 * EVM's EIP-55, whose Keccak-256 is written here since Node's crypto has only NIST's SHA3-256. Vectors come from
 * outside the project: Keccak-256 of '' and 'abc' as Ethereum publishes them, the longer ones from the Keccak team's
 * CompactFIPS202.py reference (rate 1088, suffix 0x01), EIP-55's own example addresses.
 */
import { createHash } from 'crypto';
import type { INode, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { NOT_CHOSEN, rulesAt } from '../../nodes/HaiPay/descriptions/fromRules';
import { checkRequest } from '../../nodes/HaiPay/validation/validate';
import {
	addressProblem,
	eip55,
	evmAddressProblem,
	tronAddressProblem,
} from '../../nodes/shared/contract/rules/addresses';
import { keccak256Hex } from '../../nodes/shared/contract/rules/keccak';
import { PAYOUT_RULES } from '../../nodes/shared/contract/rules/payout';
import { BASES } from '../helpers/rows';
import { EVM, TRON } from '../helpers/usdt-addresses';

const description = new HaiPay().description;

function resolved(choices: INodeParameters, typeVersion: number): INodeParameters {
	const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion, position: [0, 0], parameters: {} };
	return NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description) ?? {};
}

describe('Keccak-256', () => {
	it.each([
		['', 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470'],
		['abc', '4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45'],
		['The quick brown fox jumps over the lazy dog', '4d741b6f1eb29cb2a9b9911c82f56fa8d73b04959d3d9d222895df6c0b28aa15'],
		['a'.repeat(135), '34367dc248bbd832f4e3e69dfaac2f92638bd0bbd18f2912ba4ef454919cf446'],
		['a'.repeat(136), 'a6c4d403279fe3e0af03729caada8374b5ca54d8065329a3ebcaeb4b60aa386e'],
		['a'.repeat(137), 'd869f639c7046b4929fc92a4d988a8b22c55fbadb802c0c66ebcd484f1915f39'],
		['a'.repeat(272), 'cf7fcd4f705ee749930d19ca84561a9bf62516bd90a471545fa2f49fdc7e63c8'],
	])('of a %#th text (up to and past the 136-byte block)', (text, digest) => {
		expect(keccak256Hex(text)).toBe(digest);
	});

	it("is not NIST's SHA3-256, which Node's crypto offers", () => {
		expect(createHash('sha3-256').update('').digest('hex')).not.toBe(keccak256Hex(''));
	});
});

describe('addresses', () => {
	it.each([...EVM.mixed, ...EVM.upper, ...EVM.lower])("EIP-55's example %s reads back as written", (address) => {
		const digits = address.slice(2);
		const expected = EVM.mixed.includes(address) ? digits : eip55(digits);
		expect(eip55(digits.toLowerCase())).toBe(expected);
		expect(evmAddressProblem(address)).toBeUndefined();
	});

	it.each(EVM.oneChanged)('EVM %s, one character changed, fails its checksum', (address) => {
		expect(addressProblem('EVM', address)).toMatchObject({ rule: 'checksum' });
	});

	it.each(TRON.oneChanged)('TRON %s, one character changed, fails its checksum', (address) => {
		expect(addressProblem('TRON', address)).toMatchObject({ rule: 'checksum' });
		expect(tronAddressProblem(address)).toContain('checksum');
	});

	it("names the other chain's address as a network mismatch, whatever its checksum", () => {
		expect(addressProblem('EVM', TRON.valid[0])).toMatchObject({ rule: 'network' });
		expect(addressProblem('EVM', TRON.oneChanged[0])).toMatchObject({ rule: 'network' });
		expect(addressProblem('TRON', EVM.mixed[0])).toMatchObject({ rule: 'network' });
		expect(addressProblem('TRON', EVM.upper[0].toLowerCase())).toMatchObject({ rule: 'network' });
		expect(addressProblem('TRON', TRON.valid[1])).toBeUndefined();
	});
});

describe('USDT payout rules', () => {
	const base = BASES.USDT;
	const check = (overrides: Record<string, unknown>) => checkRequest(PAYOUT_RULES.USDT, { ...base, ...overrides });

	it("send no network: it is the node's own choice, and bankCode stays the code HaiPay configured", () => {
		const { body, violations } = check({ network: 'TRON', bankCode: 'MERCHANT-TRC' });
		expect(violations).toEqual([]);
		expect(body).not.toHaveProperty('network');
		expect(body).toMatchObject({ bankCode: 'MERCHANT-TRC', accountNo: base.accountNo });
	});

	it('refuse an address of the other chain with field accountNo and rule network, saying which it is', () => {
		const { violations } = check({ network: 'EVM', accountNo: TRON.valid[0] });
		expect(violations).toEqual([
			{
				field: 'accountNo',
				rule: 'network',
				message: expect.stringContaining('TRON address (T…), but Network is EVM'),
			},
		]);
	});

	it('warn, and send as given, an address on a network the node cannot check, or an EVM address without checksum', () => {
		const byCode = check({ network: 'BY_CODE', accountNo: 'not an address!' });
		expect(byCode.violations).toEqual([]);
		expect(byCode.body.accountNo).toBe('not an address!');
		expect(byCode.warnings).toEqual([expect.stringContaining('Network is By Code')]);
		expect(check({ network: 'BY_CODE', accountNo: TRON.valid[0] }).warnings[0]).toContain(
			'reads as a valid TRON address',
		);
		expect(check({ network: 'EVM', accountNo: EVM.lower[0] }).warnings).toEqual([
			expect.stringContaining('no EIP-55 checksum'),
		]);
		expect(check({ network: 'EVM', accountNo: EVM.mixed[0] }).warnings).toEqual([]);
		expect(check({ network: 'TRON' }).warnings).toEqual([]);
	});

	it('in node versions 1 to 3: no network field, the address sent as given with a warning that it was not checked', () => {
		const early = rulesAt(PAYOUT_RULES.USDT, 3);
		expect(early.fields.map((field) => field.name)).not.toContain('network');
		expect(rulesAt(PAYOUT_RULES.USDT, 4).fields.map((field) => field.name)).toContain('network');
		const { body, violations, warnings } = checkRequest(early, { ...base, network: undefined, accountNo: 'x' });
		expect(violations).toEqual([]);
		expect(body.accountNo).toBe('x');
		expect(warnings).toEqual([expect.stringContaining('node versions 1 to 3 name no Network')]);
	});
});

describe('the Network parameter', () => {
	const choices = { resource: 'payout', operation: 'create', currency: 'USDT' };

	it('shows from node version 4 only, with nothing chosen', () => {
		expect(resolved(choices, 4).network).toBe(NOT_CHOSEN.value);
		for (const version of [1, 2, 3]) expect(resolved(choices, version)).not.toHaveProperty('network');
		const networks = description.properties.filter((property) => property.name === 'network');
		expect(networks).toHaveLength(1);
		expect(networks[0].displayOptions?.show).toMatchObject({ '@version': [4], currency: ['USDT'] });
		expect(networks[0].options?.map((option) => (option as { value: string }).value)).toEqual([
			'',
			'BY_CODE',
			'EVM',
			'TRON',
		]);
	});
});
