/** The cases files of this folder, part 3 of 4 (test/helpers/cases.ts says why they share a test file). */
import { runCases } from '../helpers/cases';

runCases(__dirname, 3, 4);
