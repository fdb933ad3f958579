// Reads a JSON array of base64 PDFs on stdin and prints a JSON array of their text, one string per PDF.
// pdfjs-dist ships only as ES modules, which jest's CommonJS runtime cannot import, so tests run it here.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const inputs = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const out = [];
for (const base64 of inputs) {
	const doc = await getDocument({ data: new Uint8Array(Buffer.from(base64, 'base64')), verbosity: 0 }).promise;
	const pages = [];
	for (let n = 1; n <= doc.numPages; n++) {
		const content = await (await doc.getPage(n)).getTextContent();
		pages.push(content.items.map((item) => item.str).join('\n'));
	}
	out.push({ pages: doc.numPages, text: pages.join('\n\f\n'), title: (await doc.getMetadata()).info?.Title ?? '' });
	await doc.destroy();
}
process.stdout.write(JSON.stringify(out));
