import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { mkdtempSync, rmSync } from 'fs';
import { BinaryDataService, InstanceSettings } from 'n8n-core';
import { LoggerProxy } from 'n8n-workflow';
import { tmpdir } from 'os';
import { join } from 'path';

import { CapturingLogger } from './logger';

export interface HarnessEnvironment {
	/** The temporary n8n user folder (N8N_USER_FOLDER): instance settings and filesystem binary data live under it. */
	userFolder: string;
	logger: CapturingLogger;
	binaryDataService: BinaryDataService;
}

let pending: Promise<HarnessEnvironment> | undefined;
let userFolder: string | undefined;

/** Settings n8n reads from the environment when its config classes are first built; the test's own values win. */
function configureProcessEnv(folder: string): void {
	const defaults: Record<string, string> = {
		N8N_USER_FOLDER: folder,
		// A fixed key keeps n8n-core from generating one and announcing it on the console.
		N8N_ENCRYPTION_KEY: 'harness-test-only-encryption-key',
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_LOG_LEVEL: 'debug',
	};
	for (const [key, value] of Object.entries(defaults)) {
		if (process.env[key] === undefined || key === 'N8N_USER_FOLDER') process.env[key] = value;
	}
}

async function setUp(): Promise<HarnessEnvironment> {
	userFolder = mkdtempSync(join(tmpdir(), 'n8n-harness-'));
	configureProcessEnv(userFolder);

	// Installed before anything asks the container for a Logger, so that n8n-core's services and every node's
	// `this.logger` write into the capture.
	const logger = new CapturingLogger(process.env.HARNESS_LOG);
	Container.set(Logger, logger as unknown as Logger);
	LoggerProxy.init(logger);

	Container.get(InstanceSettings);
	const binaryDataService = Container.get(BinaryDataService);
	await binaryDataService.init();
	return { userFolder, logger, binaryDataService };
}

/**
 * The process-wide n8n-core set-up, made once per test file (jest gives each file its own module registry, hence
 * its own DI container) and removed after the file's tests.
 */
export async function harnessEnvironment(): Promise<HarnessEnvironment> {
	pending ??= setUp();
	return await pending;
}

export function disposeHarnessEnvironment(): void {
	if (userFolder !== undefined) rmSync(userFolder, { recursive: true, force: true });
	userFolder = undefined;
	pending = undefined;
}

const jestHooks = globalThis as { afterAll?: (fn: () => void) => void };

if (typeof jestHooks.afterAll === 'function') {
	try {
		jestHooks.afterAll(disposeHarnessEnvironment);
	} catch {
		// Imported from inside a test: the folder is left to the OS's temp cleaning.
	}
} else {
	process.once('exit', disposeHarnessEnvironment);
}
