/**
 * How a sheet's header reads to a person: the payout field a finance team's usual column names mean. Payout → Check
 * uses it only to name the column to rename, never to read a column under another name: a header that merely
 * looks like a field ("Account Number", "Bank") may hold something else (a ledger account, a bank's name), and a
 * column read on a guess pays the wrong account. A person renames it once, knowing the sheet; the node, Payout →
 * Create and the rest of the workflow (the results file, a Summarize node) then read the same column by the same
 * name. docs/haipay-node.md#a-sheets-columns says so to the user.
 */

/**
 * Headers other than the field's own spelling that read as that field, written as `normalized` writes them.
 * `orderNo` is left out on purpose: it is HaiPay's number, not the merchant's orderId.
 */
const SPELLINGS: Record<string, readonly string[]> = {
	orderId: ['orderref', 'orderreference', 'merchantorderid', 'paymentreference', 'paymentref', 'reference'],
	currency: ['ccy', 'currencycode', 'cur'],
	amount: ['payamount', 'payoutamount', 'transferamount', 'netamount', 'amt'],
	accountType: ['acctype', 'accttype', 'typeofaccount'],
	bankCode: ['bank', 'bankid', 'bankcodeorwallet', 'walletcode', 'channelcode'],
	accountNo: [
		'accountnumber',
		'accountnum',
		'acctno',
		'acctnumber',
		'accno',
		'account',
		'bankaccount',
		'bankaccountnumber',
		'bankaccountno',
		'walletnumber',
	],
	name: ['accountname', 'accountholder', 'accountholdername', 'beneficiary', 'beneficiaryname', 'payee', 'payeename'],
	phone: ['phonenumber', 'phoneno', 'mobile', 'mobilenumber', 'mobileno', 'msisdn', 'telephone', 'tel'],
	email: ['emailaddress', 'mail', 'e-mail'],
	partnerUserId: ['userid', 'partnerid', 'payeeid', 'beneficiaryid', 'employeeid', 'staffid'],
	subject: ['description', 'narration', 'memo', 'purpose', 'remark', 'remarks'],
	notifyUrl: ['callbackurl', 'webhookurl', 'notifyaddress'],
	swiftCode: ['swift', 'bic', 'swiftbic'],
	postalCode: ['postcode', 'zip', 'zipcode'],
	street: ['address', 'streetaddress'],
	birth: ['dateofbirth', 'dob', 'birthdate', 'birthday'],
	gender: ['sex'],
	idCard: ['idnumber', 'nationalid', 'idno', 'cnic'],
	ibanAccount: ['iban', 'ibannumber'],
	identifyType: ['idtype', 'identificationtype'],
};

/** A header as compared: case, accents and every character but letters and digits aside ("Order ID" is orderid). */
export function normalized(header: string): string {
	return header
		.normalize('NFKD')
		.toLowerCase()
		.replace(/[^a-z0-9]/g, '');
}

/** The field of `fields` a header reads as, by the field's own name in any spelling or a usual synonym; or none. */
export function fieldOfHeader(header: string, fields: readonly string[]): string | undefined {
	const key = normalized(header);
	if (key === '') return undefined;
	const own = fields.find((field) => normalized(field) === key);
	if (own !== undefined) return own;
	return fields.find((field) => SPELLINGS[field]?.some((spelling) => normalized(spelling) === key));
}
