/**
 * Runs in every browser-test file: a test fails when a page it drove threw, rejected unhandled
 * or logged a console error that it did not allow (harness.ts, `allowPageErrors`). What came
 * while the file set up or after its last test fails the file.
 */
import { afterAll, afterEach } from 'vitest';
import { forgetAllowances, takePageErrors } from './harness';

function check(): void {
  const errors = takePageErrors();
  forgetAllowances();
  if (errors.length) throw new Error(`the browser reported ${errors.length} error(s):\n${errors.join('\n')}`);
}

afterEach(check);
afterAll(check);
