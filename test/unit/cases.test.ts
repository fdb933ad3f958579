/** The cases files of this folder, the ones that run n8n-core (test/helpers/cases.ts says why they share a test file). */
import { runCases } from '../helpers/cases';

runCases(__dirname, 1, 1);
