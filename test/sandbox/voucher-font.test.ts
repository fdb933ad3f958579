import fontkit from '@pdf-lib/fontkit';
import { readFileSync } from 'fs';

import { cjkFont } from '../../sandbox/font';

/**
 * The subsetter pdf-lib uses halves glyph offsets in small subsets, which breaks every glyph after one of odd
 * length. Text extraction cannot see that (it reads the ToUnicode map), so this compares outlines directly.
 */

interface Glyph {
	id: number;
	path: { toSVG(): string };
}
interface Font {
	glyphForCodePoint(codePoint: number): Glyph;
	getGlyph(id: number): Glyph;
	createSubset(): { includeGlyph(glyph: Glyph): number; encodeStream(): NodeJS.ReadableStream };
}

const TEXT = '付款凭证平台订单号实际到账金额手续费备注成功失败 0123456789 ABCabc.-*';

function subsetOf(font: Font): Promise<Buffer> {
	const subset = font.createSubset();
	for (const char of TEXT) subset.includeGlyph(font.glyphForCodePoint(char.codePointAt(0) as number));
	return new Promise((resolve, reject) => {
		const parts: Buffer[] = [];
		subset
			.encodeStream()
			.on('data', (chunk: Uint8Array) => parts.push(Buffer.from(chunk)))
			.on('end', () => resolve(Buffer.concat(parts)))
			.on('error', reject);
	});
}

async function brokenGlyphs(fontBytes: Buffer): Promise<string[]> {
	const font = (fontkit as unknown as { create(bytes: Buffer): Font }).create(fontBytes);
	const subset = (fontkit as unknown as { create(bytes: Buffer): Font }).create(await subsetOf(font));
	// Glyph 0 is .notdef; the subset keeps the order in which glyphs were included, one per new character.
	const chars = [...new Set(TEXT)];
	const outline = (glyph: Glyph): string => {
		try {
			return glyph.path.toSVG();
		} catch {
			return 'unreadable';
		}
	};
	return chars.filter(
		(char, i) => outline(subset.getGlyph(i + 1)) !== outline(font.glyphForCodePoint(char.codePointAt(0) as number)),
	);
}

describe('the CJK voucher font', () => {
	it('keeps every glyph outline through pdf-lib subsetting', async () => {
		expect(await brokenGlyphs(cjkFont())).toEqual([]);
	});

	it('is needed: the font as published loses glyphs in a subset', async () => {
		const original = readFileSync(
			require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
		);
		expect((await brokenGlyphs(original)).length).toBeGreaterThan(0);
	});
});
