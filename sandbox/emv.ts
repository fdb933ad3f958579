/**
 * Payment codes that look like the real ones: EMV merchant-presented QR payloads (the text a PIX "copia e cola",
 * a QRIS or a QR Ph code holds), tag-length-value fields closed by a CRC-16/CCITT checksum. Test data: no bank or
 * wallet would pay them.
 */

function field(tag: string, value: string): string {
	return `${tag}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE over the payload, as EMV QR codes end ("6304" and four hex digits). */
function crc16(text: string): string {
	let crc = 0xffff;
	for (const byte of Buffer.from(text, 'utf8')) {
		crc ^= byte << 8;
		for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
	}
	return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The network that reads each currency's codes, and its ISO 4217 numeric currency and country. */
const NETWORKS: Record<string, { gui: string; numeric: string; country: string; city: string }> = {
	BRL: { gui: 'br.gov.bcb.pix', numeric: '986', country: 'BR', city: 'SAO PAULO' },
	IDR: { gui: 'ID.CO.QRIS.WWW', numeric: '360', country: 'ID', city: 'JAKARTA' },
	PHP: { gui: 'ph.ppmi.p2m', numeric: '608', country: 'PH', city: 'MANILA' },
};

/** A dynamic (single-use) QR payload for one order: its amount, and the order number as the reference. */
export function emvQrCode(currency: string, amount: string, reference: string): string {
	const network = NETWORKS[currency] ?? NETWORKS.BRL;
	const account = field('00', network.gui) + field('25', `sandbox.haipay.test/qr/${reference}`.slice(0, 77));
	const payload =
		field('00', '01') +
		field('01', '12') +
		field('26', account) +
		field('52', '0000') +
		field('53', network.numeric) +
		field('54', amount) +
		field('58', network.country) +
		field('59', 'HAIPAY SANDBOX') +
		field('60', network.city) +
		field('62', field('05', reference.slice(0, 25))) +
		'6304';
	return payload + crc16(payload);
}
