import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failuresOf, ROOT } from './lib.mjs';

// the shape of vitest's JSON reporter (jest-compatible): one entry per file
const report = {
  numPassedTests: 2,
  numFailedTests: 1,
  testResults: [
    {
      name: path.join(ROOT, 'apps/server/src/a.test.ts'),
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'a > passes', status: 'passed', failureMessages: [] },
        {
          fullName: 'a > refuses a bad date',
          status: 'failed',
          failureMessages: ['\nAssertionError: expected 500 to be 400\n    at a.test.ts:10:5'],
        },
      ],
    },
    {
      name: path.join(ROOT, 'apps/server/src/b.test.ts'),
      status: 'failed',
      message: 'Error: Hook timed out in 120000ms\n    at b.test.ts:3:1',
      assertionResults: [],
    },
    { name: path.join(ROOT, 'apps/server/src/c.test.ts'), status: 'passed', assertionResults: [] },
  ],
};

describe('failuresOf', () => {
  it('names each failed test and each file that failed without a test, with the first line of the message', () => {
    expect(failuresOf(report)).toEqual([
      'apps/server/src/a.test.ts > a > refuses a bad date: AssertionError: expected 500 to be 400',
      'apps/server/src/b.test.ts: Error: Hook timed out in 120000ms',
    ]);
  });

  it('is empty for a report with nothing failed', () => {
    expect(failuresOf({ testResults: [report.testResults[2]] })).toEqual([]);
  });
});
