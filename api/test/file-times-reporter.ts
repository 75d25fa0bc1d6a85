import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Writes each test file's time (its imports, hooks and tests: `diagnostic().duration`, which Vitest's
 * own JSON report leaves its hooks out of) and test count to a file, for the slowest files in the stage
 * table (scripts/stages.sh). The run's console output stays Vitest's default.
 */
export default class FileTimesReporter implements Reporter {
  constructor(private readonly outputFile: string) {}

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const files = testModules.map((module) => {
      const { duration, collectDuration } = module.diagnostic();
      return {
        file: path.relative(process.cwd(), module.moduleId),
        seconds: (duration + collectDuration) / 1000,
        tests: [...module.children.allTests()].length,
      };
    });
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, JSON.stringify({ files }, null, 1));
  }
}
