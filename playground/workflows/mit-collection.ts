import { WorkflowBuilder, type Parameters, type WorkflowFile } from '../../dev/workflow-builder';
import { condition, conditions, ifNode, manualTrigger, readFile, row, setFields, stickyNote } from '../lib/base-nodes';
import { haiPay } from '../lib/haipay-nodes';
import { callbackUrl, FILES, WORKFLOW_IDS } from './shared';

/**
 * Example 4, USD card collection (MIT): the first charge of a customer returns a payment page; the callbacks
 * example stores the card's token, and every later charge uses it.
 */

export const MIT_CUSTOMER = {
	customerId: 'cust-0042',
	name: 'Jane Doe',
	email: 'jane.doe@example.com',
	phone: '12025550142',
	clientIp: '203.0.113.10',
	amount: '25.00',
};

/** The Customer node's fields, as the charges read them. */
const CUSTOMER = "$('Customer').first().json";

export function mitCollection(): WorkflowFile {
	const b = new WorkflowBuilder(WORKFLOW_IDS.mitCollection);
	about(b);
	const saved = findSavedCard(b);
	chargeSavedCard(b, saved);
	firstCharge(b, saved);
	return b.file(
		'HaiPay example: USD card collection (MIT)',
		'First charge returns a payment page; later charges use the stored card token.',
	);
}

function about(b: WorkflowBuilder): void {
	b.add(
		stickyNote(
			'About',
			[
				'## USD card collection (MIT)',
				`**First run**: no card is saved for the customer, so the first charge returns a \`payUrl\`: open it and pay. The callback (the **HaiPay callbacks** workflow, active) stores the card's \`tokenID\` in \`${FILES}/mit-tokens/<first orderId>.json\`.`,
				'',
				"**Later runs**: the token is found and the customer is charged with it, no payment page. The charge's `orderId` holds the date, so a second run on the same day is refused by HaiPay as a duplicate instead of charging twice.",
			].join('\n'),
			[-260, -500],
			620,
			260,
		),
	);
}

/** Run → Customer → Saved card token → Card saved?: the token file of the customer's first charge, if it is there. */
function findSavedCard(b: WorkflowBuilder): string {
	const start = b.add(manualTrigger([-200, 0]));
	const customer = b.add(
		setFields(
			'Customer',
			[
				['customerId', MIT_CUSTOMER.customerId],
				['name', MIT_CUSTOMER.name],
				['email', MIT_CUSTOMER.email],
				['phone', MIT_CUSTOMER.phone],
				['clientIp', MIT_CUSTOMER.clientIp],
				['amount', MIT_CUSTOMER.amount],
				['firstOrderId', `MIT-FIRST-${MIT_CUSTOMER.customerId}`],
				['chargeOrderId', `={{ 'MIT-${MIT_CUSTOMER.customerId}-' + $now.toFormat('yyyyMMdd') }}`],
			],
			[20, 0],
		),
	);
	const token = b.add(
		readFile('Saved card token', `={{ '${FILES}/mit-tokens/' + $json.firstOrderId + '.json' }}`, [240, 0], {
			alwaysOutputData: true,
		}),
	);
	const saved = b.add(
		ifNode('Card saved?', conditions([condition('={{ $json.fileName }}', 'notEmpty', '')]), [460, 0]),
	);
	b.connect(start, customer);
	b.connect(customer, token);
	b.connect(token, saved);
	return saved;
}

/** Collection → Create of the customer's amount in USD by card, with this order's id and fields. */
function charge(orderId: string, additionalFields: Parameters): Parameters {
	return {
		resource: 'collection',
		operation: 'create',
		currency: 'USD',
		amount: `={{ ${CUSTOMER}.amount }}`,
		payType: 'CARD',
		inBankCode: 'VISA',
		name: `={{ ${CUSTOMER}.name }}`,
		phone: `={{ ${CUSTOMER}.phone }}`,
		email: `={{ ${CUSTOMER}.email }}`,
		clientIp: `={{ ${CUSTOMER}.clientIp }}`,
		partnerUserId: `={{ ${CUSTOMER}.customerId }}`,
		orderId: `={{ ${CUSTOMER}.${orderId} }}`,
		additionalFields,
		options: {},
	};
}

/** Card saved? yes → Token → Charge saved card: today's charge, with the stored token and no payment page. */
function chargeSavedCard(b: WorkflowBuilder, saved: string): void {
	const parse = b.add({
		name: 'Token',
		type: 'n8n-nodes-base.extractFromFile',
		typeVersion: 1.1,
		position: [680, -120],
		parameters: { operation: 'fromJson', binaryPropertyName: 'data', destinationKey: 'saved', options: {} },
	});
	b.connect(saved, parse, 0);
	const additional = { tokenID: '={{ $json.saved.tokenID }}', notifyUrl: callbackUrl('USD'), subject: 'Monthly plan' };
	const repeat = b.add(haiPay('Charge saved card', 'USD', charge('chargeOrderId', additional), [900, -120]));
	b.connect(parse, repeat);
}

/** Card saved? no → First charge → Send the payer to payUrl: the payment page where the customer enters the card. */
function firstCharge(b: WorkflowBuilder, saved: string): void {
	const additional = { notifyUrl: callbackUrl('USD'), subject: 'Monthly plan: first payment' };
	const first = b.add(haiPay('First charge', 'USD', charge('firstOrderId', additional), [680, 120]));
	b.connect(saved, first, 1);
	const payPage = b.add(
		setFields(
			'Send the payer to payUrl',
			[
				['orderId', row('orderId')],
				['orderNo', row('orderNo')],
				['payUrl', row('payUrl')],
				['next', 'Open payUrl and pay; the callbacks workflow stores the card token; then run this workflow again.'],
			],
			[900, 120],
		),
	);
	b.connect(first, payPage);
}
