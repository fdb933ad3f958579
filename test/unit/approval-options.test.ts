/**
 * Where the finance controls' options show, as n8n resolves a node: n8n keeps an option's saved value only while the
 * option shows, so "shown" is asked of n8n's own getNodeParameters with every option set, for every operation and
 * every node version. Approval Policy shows on Payout → Check and Payout → Create (the two places that read it),
 * Approvals and Uploaded By on Payout → Create only, Check Balance on Payout → Check only; a saved payout workflow of
 * any version keeps all of them.
 */
import type { INode, INodeParameters, INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { HaiPay } from '../../nodes/HaiPay/HaiPay.node';
import { NODE_VERSIONS } from '../../nodes/HaiPay/descriptions/versions';
import { OPERATIONS } from '../../nodes/HaiPay/resources';

const description = new HaiPay().description;

const SET: INodeParameters = {
	approvalPolicy: '{"*": {"oneApproverUpToTotal": "5", "oneApproverUpToRow": "5"}}',
	approvals: '[{"userId": "anna", "fingerprint": "v1:x"}]',
	uploadedBy: 'user-uploader',
	checkBalance: true,
};

const WHERE: Record<string, string[]> = {
	approvalPolicy: ['payout.check', 'payout.create'],
	approvals: ['payout.create'],
	uploadedBy: ['payout.create'],
	checkBalance: ['payout.check'],
};

/** The finance options n8n keeps on a node of this operation and version when every one of them is saved. */
function kept(resource: string, operation: string, typeVersion: number): string[] {
	const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion, position: [0, 0], parameters: {} };
	const choices = { resource, operation, options: { ...SET } };
	const resolved = NodeHelpers.getNodeParameters(description.properties, choices, true, false, node, description);
	const options = (resolved?.options ?? {}) as INodeParameters;
	return Object.keys(SET).filter((name) => name in options);
}

describe('the finance controls show only where they act', () => {
	it.each(NODE_VERSIONS.map((version) => [version]))('node version %i', (version) => {
		for (const { resource, operation } of OPERATIONS) {
			const expected = Object.keys(SET).filter((name) => WHERE[name].includes(`${resource}.${operation}`));
			expect({ at: `${resource}.${operation}`, kept: kept(resource, operation, version) }).toEqual({
				at: `${resource}.${operation}`,
				kept: expected,
			});
		}
	});

	it('a saved payout that leaves Resource at its default (not stored) keeps them too', () => {
		const node: INode = { id: '1', name: 'HaiPay', type: 'haiPay', typeVersion: 1, position: [0, 0], parameters: {} };
		const choices = { operation: 'create', options: { ...SET } };
		const resolved = NodeHelpers.getNodeParameters(description.properties, choices, false, false, node, description);
		expect(Object.keys((resolved?.options ?? {}) as INodeParameters).sort()).toEqual([
			'approvalPolicy',
			'approvals',
			'uploadedBy',
		]);
	});

	it("each is declared with the payout condition where its Options collection is shared by other resources' creates", () => {
		const optionsOf = (shownFor: string) =>
			description.properties.find(
				(property) =>
					property.name === 'options' &&
					((property.displayOptions?.show?.operation ?? []) as string[]).includes(shownFor),
			)?.options as INodeProperties[];
		const declared = (collection: INodeProperties[], name: string) =>
			collection.find((option) => option.name === name)?.displayOptions;
		const creates = optionsOf('create');
		for (const name of ['approvalPolicy', 'approvals', 'uploadedBy'])
			expect({ name, displayOptions: declared(creates, name) }).toEqual({
				name,
				displayOptions: { show: { '/resource': ['payout'] } },
			});
		expect(declared(creates, 'checkBalance')).toBeUndefined();
		expect(creates.some((option) => option.name === 'checkBalance')).toBe(false);
		const checks = optionsOf('check');
		expect(checks.map((option) => option.name)).toEqual(expect.arrayContaining(['approvalPolicy', 'checkBalance']));
		expect(checks.some((option) => ['approvals', 'uploadedBy'].includes(option.name))).toBe(false);
	});
});
