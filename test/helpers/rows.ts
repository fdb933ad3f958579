/** One valid create item per currency, by the gateway's field names: the base that rule tests vary one field of. */
export const BASES: Record<string, Record<string, unknown>> = {
	TZS: {
		orderId: 'T-1', amount: '1000', accountType: 'EWALLET', bankCode: 'VODACOM', accountNo: '255712345678',
		name: 'Amina Juma', phone: '255712345678', email: 'amina@example.com', partnerUserId: 'user-1',
	},
	ZAR: {
		orderId: 'Z-1', amount: '100', accountType: 'BANK_ACCOUNT', bankCode: 'FNB', accountNo: '62000000000',
		name: 'Thabo Nkosi', phone: '27821234567', email: 'thabo@example.com', partnerUserId: 'user-2',
	},
	NGN: { orderId: 'N-1', amount: '5000', accountType: 'BANK_ACCOUNT', bankCode: '058', accountNo: '0123456789', name: 'Ada Obi' },
	EGP: {
		orderId: 'E-1', amount: '100', accountType: 'BANK_ACCOUNT', bankCode: 'NBE', accountNo: '1234567890123',
		name: 'Omar Hassan', phone: '+201012345678', email: 'omar@example.com', partnerUserId: 'user-3',
	},
	BDT: {
		orderId: 'B-1', amount: '500', accountType: 'EWALLET', bankCode: 'BKASH', accountNo: '01712345678',
		name: 'Rahim Uddin', phone: '8801712345678', email: 'rahim@example.com', partnerUserId: 'user-4',
	},
	USD: {
		orderId: 'U-1', amount: '25.00', payType: 'CARD', inBankCode: 'VISA', name: 'John Smith', phone: '14155550100',
		email: 'john@example.com', clientIp: '203.0.113.7', partnerUserId: 'user-5',
	},
};
