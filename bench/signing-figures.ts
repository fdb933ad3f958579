/* What `bench/signing.ts` measures; the report formats it (report.ts) and the run collects it (run.ts). */

/**
 * The package's shipped `sign()` and `verify()` (nodes/shared/signing/signature.ts), which run the RSA work on
 * libuv's thread pool, beside `openssl speed rsa2048` on the same machine in the same run. Measured twice: one
 * operation awaited at a time (what one request costs, thread hand-off included) against openssl on one core, and
 * several in flight (what a bulk run gets from the pool) against `openssl speed -multi` on every core. RSA-2048
 * private-key operations are the limit of this CPU; the package should spend little on top of them (the canonical
 * string, SHA-256, base64, the hand-off).
 */

export interface SigningFigures {
	/** Shipped sign() and verify(), each awaited before the next starts. */
	signPerSecond: number;
	verifyPerSecond: number;
	/** The same with `inFlight` operations outstanding at once, on a pool of `threadPoolSize` threads. */
	poolSignPerSecond: number;
	poolVerifyPerSecond: number;
	inFlight: number;
	threadPoolSize: number;
	canonicalPerSecond: number;
	/** `openssl speed rsa2048`: one process, one core. */
	opensslSignPerSecond: number;
	opensslVerifyPerSecond: number;
	/** `openssl speed -multi <cores> rsa2048`: one process per core, summed by openssl. */
	cores: number;
	opensslMultiSignPerSecond: number;
	opensslMultiVerifyPerSecond: number;
	/** signPerSecond over opensslSignPerSecond. */
	ratioToOpenssl: number;
}
