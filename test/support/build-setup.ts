import { execFileSync } from 'node:child_process';

/**
 * Process tests run the built server exactly as `npm start` does: build it and its web console from
 * the current source once before they start (ATRIUM_TEST_SKIP_BUILD=1 keeps the existing dist/
 * for quick reruns).
 */
export default function buildServer(): void {
  if (process.env.ATRIUM_TEST_SKIP_BUILD === '1') return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  // Vitest sets NODE_ENV=test, which would make Vite build React's development bundle.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
