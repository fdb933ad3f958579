import type { OperationKind } from '../gateway/kinds';
import type { Currency } from './currencies';
import type { RequestRules } from './rules/types';

/**
 * Every endpoint of the gateway this package calls, as docs/contract.md states it: where it lives, which
 * currencies it serves, its kind (gateway/kinds.ts: a create, refund or change is sent once and never retried, a
 * read may be), what a request carries beside `appId` and `sign`, and what an answer's `data` holds. The node's
 * operations take their currencies, paths and request rules from here; README.md's Operations table and the tables
 * of docs/haipay-node.md are checked against it (test/unit/contract.test.ts).
 */
interface EndpointFacts {
	/** The section of docs/contract.md that defines it. */
	section: string;
	/** The currencies whose path prefix it takes; none for a currency-neutral endpoint. */
	currencies: readonly Currency[];
	path(currency: string): string;
	/** Checked field by field before signing, per currency; reads check their few fields in their operation. */
	rules?: Partial<Record<Currency, RequestRules>>;
	request: readonly string[];
	response: readonly string[];
}

/**
 * A read, or a request sent once (a create, a refund, a change), which must declare the thing it makes by its
 * product's name (products/index.ts `PRODUCTS`, whose judge reads the answer): such an endpoint cannot be listed
 * without it. A product module declares its own endpoints; contract/endpoints.ts holds every name to the registry.
 */
export type Endpoint<Made extends string = string> =
	(EndpointFacts & { kind: 'read' }) | (EndpointFacts & { kind: Exclude<OperationKind, 'read'>; makes: Made });
