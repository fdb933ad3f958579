import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UnexpectedError, UserError, Workflow, isExpression } from 'n8n-workflow';

import type { HarnessCredentialTypes, HarnessNodeTypes } from './registry';

/** One stored credential, as the harness's `credentials` option gives it: keyed by credential id. */
export interface CredentialEntry {
	type: string;
	data: ICredentialDataDecryptedObject;
	/** Shown where n8n shows a credential's name; defaults to the id. */
	name?: string;
}

export type CredentialStore = Record<string, CredentialEntry>;

function containsExpression(value: unknown): boolean {
	if (isExpression(value)) return true;
	if (Array.isArray(value)) return value.some(containsExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(containsExpression);
	return false;
}

/** Expressions of a credential read during a node's run: resolved against the run's data, as n8n does. */
function resolveInRun(
	decrypted: ICredentialDataDecryptedObject,
	values: ICredentialsExpressionResolveValues,
	mode: WorkflowExecuteMode,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	executeData: IExecuteData | undefined,
): ICredentialDataDecryptedObject {
	try {
		return values.workflow.expression.getParameterValue(
			decrypted as INodeParameters,
			values.runExecutionData,
			values.runIndex,
			values.itemIndex,
			values.node.name,
			values.connectionInputData,
			mode,
			additionalKeys,
			executeData,
			false,
			decrypted,
		) as ICredentialDataDecryptedObject;
	} catch (error) {
		(error as Error).message += ' [Error resolving credentials]';
		throw error;
	}
}

/**
 * An ICredentialsHelper with n8n's semantics over an in-memory store instead of the database: credentials are
 * looked up by the node's credential id and type, credential property defaults are applied, expressions in
 * credential fields are resolved, and `authenticate` applies the credential type's `authenticate` exactly as the
 * n8n server's CredentialsHelper does (function form called; generic form's headers/qs/body/auth resolved
 * against `$credentials` and merged into the request).
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Every `updateCredentials`/`updateCredentialsOauthTokenData` call, in order, for tests that check writes. */
	readonly updates: Array<{ id: string; type: string; data: ICredentialDataDecryptedObject }> = [];

	constructor(
		private readonly store: CredentialStore,
		private readonly credentialTypes: HarnessCredentialTypes,
		private readonly nodeTypes: HarnessNodeTypes,
	) {
		super();
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.recognizes(credentialType)) return true;
		const typeDef = this.credentialTypes.getByName(credentialType);
		if (!typeDef.restrictToSupportedNodes) return true;
		return this.credentialTypes.getSupportedNodes(credentialType).includes(nodeType);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (authenticate === undefined) return requestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);

		if (!workflow || !node) {
			throw new UnexpectedError('Workflow and node are required for declarative credential authentication');
		}
		requestOptions.headers ??= {};
		if (authenticate.type === 'generic') {
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const resolvedKey = this.resolveValue(key, credentials, workflow, node);
					const resolvedValue = this.resolveValue(value as string, credentials, workflow, node);
					target[outerKey] ??= {};
					target[outerKey][resolvedKey] = resolvedValue;
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[credentialType.name];
		if (nodeCredentials) {
			const stored = this.entry(nodeCredentials, credentialType.name);
			await this.updateCredentials(nodeCredentials, credentialType.name, {
				...stored.data,
				...(output as ICredentialDataDecryptedObject),
			});
		}
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		return (
			((await credentialType.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject) ??
			undefined
		);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<Credentials> {
		const stored = this.entry(nodeCredentials, type);
		const credentials = new Credentials({ id: nodeCredentials.id, name: stored.name ?? nodeCredentials.name }, type);
		await credentials.setData(stored.data);
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const stored = structuredClone(this.entry(nodeCredentials, type).data);
		if (raw === true) return stored;

		const decrypted = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			stored as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (stored.oauthTokenData !== undefined) decrypted.oauthTokenData = stored.oauthTokenData;
		if (!containsExpression(decrypted)) return decrypted;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues)
			return resolveInRun(decrypted, expressionResolveValues, mode, additionalKeys, executeData);
		return this.resolveOutsideRun(decrypted, mode, additionalKeys);
	}

	/** Expressions of a credential read outside a node's run (a credential test): resolved on a one-node workflow. */
	private resolveOutsideRun(
		decrypted: ICredentialDataDecryptedObject,
		mode: WorkflowExecuteMode,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
	): ICredentialDataDecryptedObject {
		const mockNode: INode = {
			id: 'credential-resolution',
			name: '',
			type: 'harness.noOp',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		};
		const workflow = new Workflow({ nodes: [mockNode], connections: {}, active: false, nodeTypes: this.nodeTypes });
		return workflow.expression.getComplexParameterValue(
			mockNode,
			decrypted as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			decrypted,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.entry(nodeCredentials, type);
		stored.data = structuredClone(data);
		this.updates.push({ id: nodeCredentials.id as string, type, data: structuredClone(data) });
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.entry(nodeCredentials, type);
		stored.data = { ...stored.data, oauthTokenData: structuredClone(data.oauthTokenData) };
		this.updates.push({ id: nodeCredentials.id as string, type, data: structuredClone(stored.data) });
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const typeData = this.credentialTypes.getByName(type);
		if (typeData.extends === undefined) return typeData.properties;
		const combined: INodeProperties[] = [];
		for (const parent of typeData.extends) {
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, typeData.properties);
		return combined;
	}

	/** The stored credential a node points at, failing the way n8n does when the id is missing or of another type. */
	private entry(nodeCredentials: INodeCredentialsDetails, type: string): CredentialEntry {
		if (!nodeCredentials.id) {
			throw new UserError(
				`Credential "${nodeCredentials.name}" of type "${type}" has no id. Give the node { id, name }.`,
			);
		}
		const stored = this.store[nodeCredentials.id];
		if (stored === undefined || stored.type !== type) {
			throw new UserError(`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`);
		}
		return stored;
	}

	private resolveValue(
		parameterValue: string,
		credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const value = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return value ? value.toString() : '';
	}
}
