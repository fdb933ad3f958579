import type { IExecuteFunctions } from 'n8n-workflow';

/*
 * n8n 2.40 evaluates every expression in an isolated VM, about 0.3 ms each: with nine mapped fields that is most
 * of a bulk payout's CPU. A mapped spreadsheet field is nearly always exactly `{{ $json.field }}`, whose value is
 * the input item's field, so that one form is read straight from the item. Anything else goes to n8n as usual.
 */
const SIMPLE_REFERENCE = /^=\s*\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(["'])([^"'\\]+)\2\s*\])\s*\}\}\s*$/;

/** The input field an expression reads when it is exactly `{{ $json.name }}` or `{{ $json["name"] }}`. */
export function referencedField(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = SIMPLE_REFERENCE.exec(raw);
	return match === null ? undefined : (match[1] ?? match[3]);
}

function rawAt(parameters: unknown, path: string): unknown {
	let current = parameters;
	for (const key of path.split('.')) {
		if (current === null || typeof current !== 'object') return undefined;
		current = (current as Record<string, unknown>)[key];
	}
	return current;
}

/** A parameter's value as saved on the node, expressions unresolved. */
export function rawParameter(ctx: IExecuteFunctions, path: string): unknown {
	return rawAt(ctx.getNode().parameters, path);
}

/** Whether a value holds an expression anywhere: a string that starts with "=", at any depth. */
function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (value === null || typeof value !== 'object') return false;
	return Object.values(value).some(holdsExpression);
}

/**
 * A parameter's value for one item, as `getNodeParameter` would give it. A value without any expression is the
 * same for every item, and n8n would only copy it: it is returned as set (callers only read it).
 */
export function parameterValue(ctx: IExecuteFunctions, itemIndex: number, path: string, fallback: unknown): unknown {
	const raw = rawAt(ctx.getNode().parameters, path);
	if (raw !== undefined && !holdsExpression(raw)) return raw;
	const field = referencedField(raw);
	if (field === undefined) return ctx.getNodeParameter(path, itemIndex, fallback);
	const json = ctx.getInputData()[itemIndex]?.json;
	return json === undefined ? fallback : json[field];
}

/** Whether a collection parameter (such as "Additional Fields") holds a value for this key. */
export function hasCollectionEntry(ctx: IExecuteFunctions, collection: string, key: string): boolean {
	const raw = rawAt(ctx.getNode().parameters, collection);
	return raw !== null && typeof raw === 'object' && key in raw;
}

/** Whether a parameter holds a fixed value, one set on the node (or its default), rather than an expression. */
export function isFixedParameter(ctx: IExecuteFunctions, path: string): boolean {
	const raw = rawAt(ctx.getNode().parameters, path);
	return raw !== undefined && !expressionOnPath(ctx.getNode().parameters, path);
}

/** Whether the value at a path, or anything on the way to it (a whole collection), is an expression. */
function expressionOnPath(parameters: unknown, path: string): boolean {
	let current = parameters;
	for (const key of path.split('.')) {
		if (typeof current === 'string') return current.startsWith('=');
		if (current === null || typeof current !== 'object') return false;
		current = (current as Record<string, unknown>)[key];
	}
	return holdsExpression(current);
}
