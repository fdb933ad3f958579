import { parse } from 'flatted';

import type { N8nRest } from '../playground/lib/rest';

/** Seconds each node of the workflow's latest execution ran, from the run data n8n stored. */
export async function nodeSeconds(rest: N8nRest, workflowId: string): Promise<Record<string, number>> {
	const [latest] = await rest.executions(workflowId);
	if (!latest) throw new Error(`workflow ${workflowId} has no execution`);
	const execution = (await rest.execution(latest.id)) as { data: string };
	const data = parse(execution.data) as { resultData: { runData: Record<string, Array<{ executionTime: number }>> } };
	const seconds: Record<string, number> = {};
	for (const [node, runs] of Object.entries(data.resultData.runData)) {
		seconds[node] = runs.reduce((sum, run) => sum + run.executionTime, 0) / 1000;
	}
	return seconds;
}
