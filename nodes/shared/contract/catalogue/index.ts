import { COLLECTION_METHODS } from './collection';
import { PAYOUT_METHODS } from './payout';
import { SOURCES, type SourceKey } from './sources';
import type { OrderKind } from '../statuses';
import type { CatalogueField, CatalogueSource, MethodEntry } from './types';

export type { CatalogueField, Certainty, MethodEntry } from './types';
export { SOURCES } from './sources';

/**
 * The catalogue's version: raised whenever a row is added, changed or removed, with the date its pages were read.
 * Payout → Check names it in a warning, so a reviewer knows how old the list a code was compared with is.
 */
export const CATALOGUE_VERSION = '1 (2026-11-27)';

export const METHODS: readonly MethodEntry[] = [...PAYOUT_METHODS, ...COLLECTION_METHODS];

/** The field of a request whose codes the catalogue holds, per kind. */
const FIELDS: Record<OrderKind, readonly CatalogueField[]> = {
	payout: ['bankCode'],
	collection: ['payType', 'inBankCode'],
};

export function sourceOf(entry: MethodEntry | { source: string }): CatalogueSource {
	return SOURCES[entry.source as SourceKey];
}

function methodsOf(kind: OrderKind, currency?: string): MethodEntry[] {
	return METHODS.filter((entry) => entry.kind === kind && (currency === undefined || entry.currency === currency));
}

/** Whether the catalogue lists codes of this field for this currency. */
export function hasCatalogue(kind: OrderKind, field: string, currency: string): boolean {
	return (FIELDS[kind] as readonly string[]).includes(field) && methodsOf(kind, currency).length > 0;
}

/** The currencies with a catalogue of this kind, in catalogue order. */
export function cataloguedCurrencies(kind: OrderKind): string[] {
	return [...new Set(methodsOf(kind).map((entry) => entry.currency))];
}

/** One entry of a searchable list: the value sent, what a person reads, and where it came from. */
interface CatalogueChoice {
	value: string;
	name: string;
	description: string;
}

function limitsText(entry: MethodEntry): string {
	return entry.limits === undefined
		? ''
		: `; ${entry.limits.min}-${entry.limits.max} ${entry.currency} (HaiPay's limits table)`;
}

function choiceOf(entry: MethodEntry, withCurrency: boolean): CatalogueChoice {
	const prefix = withCurrency ? `${entry.currency} · ` : '';
	const source = sourceOf(entry);
	const context = entry.accountType ?? entry.payType;
	const name = `${prefix}${entry.name} (${entry.code})${context === undefined ? '' : ` · ${context}`}`;
	return { value: entry.code, name, description: `${source.certainty}: ${source.page}${limitsText(entry)}` };
}

/** Pay types appear once each, naming the methods that use them. */
function payTypeChoices(entries: MethodEntry[], withCurrency: boolean): CatalogueChoice[] {
	const byName = new Map<string, { value: string; methods: string[] }>();
	for (const entry of entries) {
		const name = `${withCurrency ? `${entry.currency} · ` : ''}${entry.payType}`;
		const known = byName.get(name) ?? { value: entry.payType ?? '', methods: [] };
		known.methods.push(entry.name);
		byName.set(name, known);
	}
	return [...byName].map(([name, { value, methods }]) => ({ value, name, description: `For ${methods.join(', ')}` }));
}

/**
 * The catalogue's choices for a field, narrowed to a currency when one is known (none when the currency is an
 * expression: then every currency's, each named with its currency), and to those whose code, name, pay type or
 * currency holds the filter, ignoring case.
 */
export function searchCatalogue(
	kind: OrderKind,
	field: CatalogueField,
	currency: string | undefined,
	filter = '',
): CatalogueChoice[] {
	const wanted = filter.trim().toLowerCase();
	const matches = methodsOf(kind, currency).filter((entry) =>
		[entry.code, entry.name, entry.payType ?? '', entry.currency].some((text) => text.toLowerCase().includes(wanted)),
	);
	const withCurrency = currency === undefined;
	const choices =
		field === 'payType' ? payTypeChoices(matches, withCurrency) : matches.map((entry) => choiceOf(entry, withCurrency));
	return choices.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Why a payout's code deserves a second look, or undefined: a code the catalogue lacks for a currency it has a list
 * for (HaiPay may have added it, or enabled it for this merchant alone), or one listed for another account type.
 * Never a refusal: HaiPay decides, and answers 4002 "channel code does not exist" to a code it lacks.
 */
export function payoutCodeWarning(currency: string, code: string, accountType?: string): string | undefined {
	const listed = methodsOf('payout', currency);
	if (listed.length === 0 || code === '') return undefined;
	const same = listed.filter((entry) => entry.code === code);
	if (same.length === 0) {
		const near = listed.find((entry) => entry.code.toLowerCase() === code.toLowerCase());
		const hint =
			near === undefined
				? `it lists ${listed.map((entry) => entry.code).join(', ')}`
				: `it lists "${near.code}", written otherwise`;
		return `bankCode "${code}" is not in the method catalogue ${CATALOGUE_VERSION} for ${currency} (${hint}): HaiPay may have added it since; check it with HaiPay before paying`;
	}
	const types = same.map((entry) => entry.accountType).filter((type): type is string => type !== undefined);
	if (accountType !== undefined && types.length === same.length && !types.includes(accountType)) {
		return `bankCode "${code}" is in the method catalogue ${CATALOGUE_VERSION} for ${currency} with accountType ${types.join(', ')}, not ${accountType}`;
	}
	return undefined;
}
