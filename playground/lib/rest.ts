import { request } from 'http';

import { OWNER } from './n8n';

export interface Answer {
	status: number;
	body: string;
	json: unknown;
	headers: Record<string, string | string[] | undefined>;
}

export function httpRequest(
	url: string,
	options: { method?: string; body?: unknown; headers?: Record<string, string>; timeoutMs?: number; raw?: string } = {},
): Promise<Answer> {
	const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	return new Promise((resolve, reject) => {
		const req = request(
			url,
			{
				method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
				timeout: options.timeoutMs ?? 15_000,
				headers: {
					...(payload === undefined
						? {}
						: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
					...options.headers,
				},
			},
			(res) => {
				let body = '';
				res.on('data', (chunk: Buffer) => (body += chunk.toString()));
				res.on('end', () => {
					let json: unknown;
					try {
						json = JSON.parse(body);
					} catch {
						json = undefined;
					}
					resolve({ status: res.statusCode ?? 0, body, json, headers: res.headers });
				});
			},
		);
		req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${options.timeoutMs ?? 15_000} ms`)));
		req.on('error', reject);
		if (payload !== undefined) req.write(payload);
		req.end();
	});
}

/** The most executions n8n's REST API lists at once. */
const EXECUTIONS_PAGE = 100;

/** n8n's own REST API (/rest), as the editor uses it, with the owner's session cookie. */
export class N8nRest {
	private cookie = '';

	constructor(readonly baseUrl: string) {}

	/** `path` is below /rest, unless it starts with /types/ (the node and credential descriptions). */
	async call(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<Answer> {
		const url = path.startsWith('/types/') ? `${this.baseUrl}${path}` : `${this.baseUrl}/rest${path}`;
		return httpRequest(url, {
			method,
			body,
			headers: { ...(this.cookie ? { Cookie: this.cookie } : {}), 'browser-id': 'haipay-playground' },
			timeoutMs,
		});
	}

	private keepCookie(answer: Answer): void {
		const set = answer.headers['set-cookie'];
		const cookies = (Array.isArray(set) ? set : set ? [set] : []).map((c) => c.split(';')[0]);
		if (cookies.length > 0) this.cookie = cookies.join('; ');
	}

	/** Creates the owner on a fresh instance, then logs in; on an instance that has it, just logs in. */
	async ensureOwner(): Promise<void> {
		const first = await this.call('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		if (first.status === 200) {
			this.keepCookie(first);
			return;
		}
		const setup = await this.call('POST', '/owner/setup', OWNER);
		if (setup.status !== 200) throw new Error(`owner setup failed: HTTP ${setup.status} ${setup.body.slice(0, 300)}`);
		await this.login();
	}

	/**
	 * Adds a member to this n8n as its owner would (an invitation, accepted with a password), unless one can log in
	 * with that email and password already. n8n sends no email here: the accept link's token comes back in the answer.
	 */
	async ensureMember(member: { email: string; password: string; firstName: string; lastName: string }): Promise<void> {
		const login = await httpRequest(`${this.baseUrl}/rest/login`, {
			body: { emailOrLdapLoginId: member.email, password: member.password },
			headers: { 'browser-id': 'haipay-playground' },
		});
		if (login.status === 200) return;
		const invited = await this.call('POST', '/invitations', [{ email: member.email, role: 'global:member' }]);
		if (invited.status !== 200)
			throw new Error(`inviting ${member.email} failed: HTTP ${invited.status} ${invited.body.slice(0, 300)}`);
		const [{ user }] = (invited.json as { data: Array<{ user: { inviteAcceptUrl?: string } }> }).data;
		const link = new URL(user.inviteAcceptUrl ?? '', this.baseUrl).searchParams;
		const [token, inviterId, inviteeId] = [link.get('token'), link.get('inviterId'), link.get('inviteeId')];
		const { email: _email, ...profile } = member;
		// n8n 2.x signs the invitation into a token; 1.x names the inviter and the invitee, and takes them in the path.
		const acceptance = token
			? { path: '/rest/invitations/accept', body: { token, ...profile } }
			: inviterId && inviteeId
				? { path: `/rest/invitations/${inviteeId}/accept`, body: { inviterId, ...profile } }
				: undefined;
		if (acceptance === undefined)
			throw new Error(`n8n gave no invitation to accept for ${member.email}: ${invited.body.slice(0, 300)}`);
		const accepted = await httpRequest(`${this.baseUrl}${acceptance.path}`, {
			body: acceptance.body,
			headers: { 'browser-id': 'haipay-playground' },
		});
		if (accepted.status !== 200)
			throw new Error(
				`accepting the invitation of ${member.email} failed: HTTP ${accepted.status} ${accepted.body.slice(0, 300)}`,
			);
	}

	async login(): Promise<void> {
		const answer = await this.call('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		if (answer.status !== 200) throw new Error(`login failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
		this.keepCookie(answer);
	}

	/**
	 * A workflow's executions, newest first: one page of at most 100, the most n8n lists at once (2.40 and 1.x cap a
	 * larger limit at 100, 2.41 refuses it). A workflow with more fails here rather than being counted short.
	 */
	async executions(
		workflowId: string,
	): Promise<Array<{ id: string; status: string; mode: string; workflowId: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const answer = await this.call('GET', `/executions?filter=${filter}&limit=${EXECUTIONS_PAGE}`);
		if (answer.status !== 200)
			throw new Error(`listing executions failed: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
		const data = (
			answer.json as { data: { results: Array<{ id: string; status: string; mode: string; workflowId: string }> } }
		).data;
		if (data.results.length >= EXECUTIONS_PAGE)
			throw new Error(
				`workflow ${workflowId} has ${EXECUTIONS_PAGE} executions or more: more than one page of n8n's list`,
			);
		return data.results;
	}

	/** One execution with its run data: for a sheet of 50,000 rows n8n reads and sends tens of megabytes, so a minute. */
	async execution(id: string): Promise<unknown> {
		const answer = await this.call('GET', `/executions/${id}`, undefined, 60_000);
		if (answer.status !== 200) throw new Error(`reading execution ${id} failed: HTTP ${answer.status}`);
		return (answer.json as { data: unknown }).data;
	}
}
