import type { ICredentialsDecrypted, IDataObject } from 'n8n-workflow';

import { balancePath } from '../../shared/contract/paths';
import { provenData } from '../../shared/gateway/lookup';
import type { GatewayContext } from '../../shared/gateway/request';
import type { HaiPaySettings } from '../../shared/signing/credential';
import { exactText } from '../../shared/text';
import { distrustBalance } from '../execute/trust';
import { exactNumberText } from './numbers';

/**
 * The balance before the approval (Payout → Check, Options → Check Balance): HaiPay's signed balance of every
 * currency with a row to pay, set beside that currency's total to pay. Only a balance HaiPay signed, about the
 * account, with an `availableBal` that is a decimal, is compared; anything else leaves the currency's balance
 * `unknown`, said so with why, and never taken for enough. The comparison is exact, in the currency's units.
 */

/** What came of one currency's balance query. */
export type BalanceRead = { availableBal: string } | { unknown: string };

/** A signed decimal as HaiPay may write a balance: "-12.50", "0", 1000. */
const SIGNED_DECIMAL = /^-?\d+(?:\.\d+)?$/;

function availableOf(data: IDataObject): string | undefined {
	const value = data.availableBal;
	const text = typeof value === 'number' ? (exactNumberText(value) ?? '') : exactText(value);
	return SIGNED_DECIMAL.test(text) ? text : undefined;
}

/**
 * HaiPay's ledger answer names no account, so a signed balance of another currency cannot be told apart; but one that
 * does name an App ID or a currency other than those asked is about another account and is not compared.
 */
function otherAccount(data: IDataObject, currency: string, signer: HaiPaySettings): string | undefined {
	const appId = exactText(data.appId);
	if (appId !== '' && appId !== String(signer.appId))
		return `the signed answer is about App ID ${appId}, not ${currency}'s ${signer.appId}`;
	const named = exactText(data.currency);
	if (named !== '' && named !== currency) return `the signed answer is about ${named}, not ${currency}`;
	return undefined;
}

/** What a balance query needs: the run's context and credential, and how long each attempt may take. */
export interface BalanceQueries {
	ctx: GatewayContext;
	credential: ICredentialsDecrypted;
	timeoutMs: number;
	retries: number;
}

/** Reads the balance of each currency, signed by its own App ID (`signers`), all at once: a sheet has few currencies. */
export async function readBalances(
	queries: BalanceQueries,
	signers: ReadonlyMap<string, HaiPaySettings>,
): Promise<Map<string, BalanceRead>> {
	const { ctx, credential, timeoutMs, retries } = queries;
	const reads = await Promise.all(
		[...signers].map(async ([currency, signer]): Promise<[string, BalanceRead]> => {
			try {
				const query = { path: balancePath(currency), body: {}, what: 'balance' };
				const data = await provenData(ctx, query, signer, { timeoutMs, retries, credential }, (answer) =>
					distrustBalance({ type: 'data', data: answer, verification: 'verified' }),
				);
				const other = otherAccount(data, currency, signer);
				if (other !== undefined) return [currency, { unknown: other }];
				const available = availableOf(data);
				if (available === undefined)
					return [currency, { unknown: "HaiPay's signed answer has no availableBal that reads as a decimal" }];
				return [currency, { availableBal: available }];
			} catch (error) {
				return [currency, { unknown: error instanceof Error ? error.message : String(error) }];
			}
		}),
	);
	return new Map(reads);
}

/** `a - b` of two signed decimals, exactly, with the places of the longer. */
function minus(a: string, b: string): string {
	const places = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
	const units = (text: string): bigint => {
		const negative = text.startsWith('-');
		const [whole, fraction = ''] = text.replace('-', '').split('.');
		const value = BigInt(whole + fraction.padEnd(places, '0'));
		return negative ? -value : value;
	};
	const difference = units(a) - units(b);
	const digits = (difference < 0n ? -difference : difference).toString().padStart(places + 1, '0');
	const sign = difference < 0n ? '-' : '';
	return places === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

/** A currency line of the summary with its balance beside its total to pay. */
export function balanceLine(line: IDataObject, read: BalanceRead | undefined): IDataObject {
	if (read === undefined) return line;
	if ('unknown' in read)
		return { ...line, balance: 'unknown', availableBal: null, shortfall: null, balanceWhy: read.unknown };
	const over = minus(String(line.total), read.availableBal);
	const short = !over.startsWith('-') && /[1-9]/.test(over);
	return {
		...line,
		balance: short ? 'short' : 'enough',
		availableBal: read.availableBal,
		shortfall: short ? over : '0',
	};
}

/** The summary with each read currency's balance, and the currencies short or unknown named at its top. */
export function withBalances(summary: IDataObject, reads: ReadonlyMap<string, BalanceRead>): IDataObject {
	const currencies = (summary.currencies as IDataObject[]).map((line) =>
		balanceLine(line, reads.get(String(line.currency))),
	);
	const named = (state: string) => currencies.filter((line) => line.balance === state).map((line) => line.currency);
	return { ...summary, currencies, shortCurrencies: named('short'), balanceUnknownCurrencies: named('unknown') };
}
