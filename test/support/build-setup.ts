import { execFileSync } from 'node:child_process';

/**
 * Process tests run the built server exactly as `npm start` does: build it from the current source
 * once before they start (ATRIUM_TEST_SKIP_BUILD=1 keeps the existing dist/ for quick reruns).
 */
export default function buildServer(): void {
  if (process.env.ATRIUM_TEST_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
