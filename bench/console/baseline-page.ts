import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The baseline page's button, named like the console's sign-in button so both are found the same way. */
export const BASELINE_BUTTON = 'Sign in';
/** Where the baseline page fetches its rows. */
export const BASELINE_ROWS_PATH = '/rows.json';

/**
 * The least a page can be: one button, and behind it a few lines of plain script that fetch the
 * rows and put them in a table, one `[data-entry]` row each, as the console's table marks its own.
 */
const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Baseline</title></head>
<body>
<button type="button" id="load">${BASELINE_BUTTON}</button>
<table><tbody id="rows"></tbody></table>
<script>
document.getElementById('load').addEventListener('click', async () => {
  const entries = await (await fetch('${BASELINE_ROWS_PATH}')).json();
  const body = document.getElementById('rows');
  for (const entry of entries) {
    const row = document.createElement('tr');
    row.dataset.entry = entry.display_name;
    for (const value of [entry.display_name, entry.size ?? '', entry.mtime ?? '']) {
      const cell = document.createElement('td');
      cell.textContent = String(value);
      row.append(cell);
    }
    body.append(row);
  }
});
</script>
</body></html>
`;

export interface BaselinePage {
  url: string;
  stop(): Promise<void>;
}

/** A bare node:http server on loopback with the page and `rowsJson` (the console's own first page, as the API gave it). */
export async function startBaselinePage(rowsJson: string): Promise<BaselinePage> {
  const server = http.createServer((request, response) => {
    const [type, body] = request.url === BASELINE_ROWS_PATH ? ['application/json', rowsJson] : ['text/html; charset=utf-8', PAGE];
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
