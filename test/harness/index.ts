export { runWorkflow } from './run-workflow';
export { runListSearch } from './list-search';
export type { ListSearchCall } from './list-search';
export type { BinaryInput, HarnessExecutionMode, InputItem, RunWorkflowOptions } from './run-workflow';
export { binaryBuffer } from './run';
export type { ErrorSummary, RunResult } from './run';
export type { WorkflowDefinition } from './workflow';
export type { CredentialEntry, CredentialStore } from './credentials-helper';
export { HarnessCredentialsHelper } from './credentials-helper';
export {
	COUNT_RUNS_NODE_TYPE,
	HarnessCountRuns,
	HarnessNoOp,
	HarnessStart,
	NO_OP_NODE_TYPE,
	START_NODE_TYPE,
	chain,
	connect,
	testNodeDescription,
} from './nodes';
export type { NodeSpec } from './nodes';
export { PACKAGE_PREFIX, fullTypeName } from './registry';
export type { CredentialTypeInput, NodeTypeInput } from './registry';
export { harnessEnvironment } from './environment';
export type { HarnessEnvironment } from './environment';
export type { LogLine, LogLevel } from './logger';
export { webhookServer } from './webhook-server';
export { StaticDataStore } from './static-data';
export type {
	ActivationCall,
	HttpReply,
	SendOptions,
	StaticDataSaveOrder,
	WebhookCall,
	WebhookExecution,
	WebhookRequest,
	WebhookResponse,
	WebhookServer,
	WebhookServerOptions,
	WebhookUrlKind,
} from './webhook-server';
