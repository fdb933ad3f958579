import { readFileSync } from 'fs';

/**
 * Noto Sans SC for Chinese vouchers, made safe for pdf-lib's subsetter. @pdf-lib/fontkit writes a subset's
 * `loca` in the short format (offsets halved) whenever the subset is small, which silently corrupts every glyph
 * that follows one of odd length; Noto's glyphs are not padded, so about half the characters of a voucher
 * rendered blank (text extraction still worked, which is why only a rendering showed it). Padding each glyph to
 * an even length once, here, keeps every offset even.
 */

const FONT_MODULE = '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf';

interface TableRecord {
	tag: string;
	offset: number;
	length: number;
}

function tables(font: Buffer): Map<string, TableRecord> {
	const count = font.readUInt16BE(4);
	const out = new Map<string, TableRecord>();
	for (let i = 0; i < count; i++) {
		const at = 12 + i * 16;
		const tag = font.toString('latin1', at, at + 4);
		out.set(tag, { tag, offset: font.readUInt32BE(at + 8), length: font.readUInt32BE(at + 12) });
	}
	return out;
}

function checksum(data: Buffer): number {
	let sum = 0;
	const padded = data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
	for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
	return sum;
}

/** Rewrites `glyf` with every glyph padded to an even length, and `loca` in the long format to match. */
export function padGlyphs(font: Buffer): Buffer {
	const records = tables(font);
	const head = records.get('head');
	const maxp = records.get('maxp');
	const loca = records.get('loca');
	const glyf = records.get('glyf');
	if (!head || !maxp || !loca || !glyf) return font;
	const numGlyphs = font.readUInt16BE(maxp.offset + 4);
	const longLoca = font.readInt16BE(head.offset + 50) === 1;
	const offsetAt = (i: number) =>
		longLoca ? font.readUInt32BE(loca.offset + i * 4) : font.readUInt16BE(loca.offset + i * 2) * 2;

	const glyphs: Buffer[] = [];
	const newLoca = Buffer.alloc((numGlyphs + 1) * 4);
	let position = 0;
	for (let i = 0; i < numGlyphs; i++) {
		const start = offsetAt(i);
		const end = offsetAt(i + 1);
		let glyph = font.subarray(glyf.offset + start, glyf.offset + end);
		if (glyph.length % 2 === 1) glyph = Buffer.concat([glyph, Buffer.alloc(1)]);
		newLoca.writeUInt32BE(position, i * 4);
		glyphs.push(glyph);
		position += glyph.length;
	}
	newLoca.writeUInt32BE(position, numGlyphs * 4);

	const contents = new Map<string, Buffer>();
	for (const record of records.values())
		contents.set(record.tag, Buffer.from(font.subarray(record.offset, record.offset + record.length)));
	contents.set('glyf', Buffer.concat(glyphs));
	contents.set('loca', newLoca);
	const newHead = contents.get('head') as Buffer;
	newHead.writeInt16BE(1, 50);
	newHead.writeUInt32BE(0, 8);

	const tags = [...contents.keys()].sort();
	const headerLength = 12 + tags.length * 16;
	const header = Buffer.alloc(headerLength);
	font.copy(header, 0, 0, 12);
	const bodies: Buffer[] = [];
	let offset = headerLength;
	tags.forEach((tag, i) => {
		const data = contents.get(tag) as Buffer;
		const at = 12 + i * 16;
		header.write(tag, at, 'latin1');
		header.writeUInt32BE(checksum(data), at + 4);
		header.writeUInt32BE(offset, at + 8);
		header.writeUInt32BE(data.length, at + 12);
		const padding = (4 - (data.length % 4)) % 4;
		bodies.push(data, Buffer.alloc(padding));
		offset += data.length + padding;
	});
	const out = Buffer.concat([header, ...bodies]);
	const headAt = out.readUInt32BE(12 + tags.indexOf('head') * 16 + 8);
	out.writeUInt32BE((0xb1b0afba - checksum(out)) >>> 0, headAt + 8);
	return out;
}

let cached: Buffer | undefined;

/** Loaded and padded once per process; each voucher then embeds only the glyphs it uses. */
export function cjkFont(): Buffer {
	cached ??= padGlyphs(readFileSync(require.resolve(FONT_MODULE)));
	return cached;
}
