import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UnexpectedError } from 'n8n-workflow';

/** The package prefix n8n puts in front of a community node's name (`n8n-nodes-haipay.haiPay`). */
export const PACKAGE_PREFIX = 'n8n-nodes-haipay';

export type NodeTypeInput = INodeType | IVersionedNodeType | (new () => INodeType | IVersionedNodeType);
export type CredentialTypeInput = ICredentialType | (new () => ICredentialType);

function instantiate<T extends object>(input: T | (new () => T)): T {
	return typeof input === 'function' ? new (input as new () => T)() : input;
}

function descriptionOf(type: INodeType | IVersionedNodeType): INodeTypeDescription {
	return type.description as INodeTypeDescription;
}

/** Full type name as a workflow stores it: `name` when it already has a package prefix, else `n8n-nodes-haipay.name`. */
export function fullTypeName(name: string): string {
	return name.includes('.') ? name : `${PACKAGE_PREFIX}.${name}`;
}

/** The highest version a node type offers, which is what a new node in the editor gets. */
export function latestVersion(type: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in type) return type.currentVersion;
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** The INodeTypes n8n-core resolves node types through. A type answers to its full name and to its bare name. */
export class HarnessNodeTypes implements INodeTypes {
	private readonly byName = new Map<string, INodeType | IVersionedNodeType>();

	constructor(types: NodeTypeInput[]) {
		for (const input of types) this.add(instantiate(input));
	}

	add(type: INodeType | IVersionedNodeType): void {
		const name = descriptionOf(type).name;
		this.byName.set(fullTypeName(name), type);
		this.byName.set(name, type);
	}

	has(name: string): boolean {
		return this.byName.has(name);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.byName.get(nodeType);
		if (type === undefined) {
			throw new UnexpectedError(
				`Unknown node type "${nodeType}". Pass its class in the harness's nodeTypes option (known: ${[...new Set(this.byName.keys())].join(', ')}).`,
			);
		}
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const [name, type] of this.byName) known[name] = { className: type.constructor.name, sourcePath: '' };
		return known;
	}
}

/** The ICredentialTypes registry: our credential classes plus any a test adds. */
export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly byName = new Map<string, ICredentialType>();

	constructor(types: CredentialTypeInput[]) {
		for (const input of types) {
			const type = instantiate(input);
			this.byName.set(type.name, type);
		}
	}

	recognizes(credentialType: string): boolean {
		return this.byName.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		const type = this.byName.get(credentialType);
		if (type === undefined) {
			throw new UnexpectedError(
				`Unknown credential type "${credentialType}". Pass its class in the harness's credentialTypes option.`,
			);
		}
		return type;
	}

	getSupportedNodes(type: string): string[] {
		return (this.byName.get(type)?.supportedNodes ?? []).map(fullTypeName);
	}

	/** All ancestors, nearest first, like n8n's CredentialTypes. */
	getParentTypes(typeName: string): string[] {
		const parents = this.byName.get(typeName)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
}
