/** A refusal of the control API, with the HTTP status its HTTP face answers (400, 404 or 409). */
export class ControlError extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}
