/** The longest text a preview shows: enough to read, never a whole log file in memory. */
export const TEXT_PREVIEW_BYTES = 1024 * 1024;

export interface TextStart {
  text: string;
  /** The file is longer than what is shown. */
  cut: boolean;
}

/**
 * The start of a text file at `url` (a share link's file, a signed download), asked with a Range
 * so that a large file is never read whole; `failure` turns a refusal into the caller's error.
 */
export async function readTextStart(url: string, signal: AbortSignal, failure: (status: number, body: string) => Error): Promise<TextStart> {
  const response = await fetch(url, { credentials: 'same-origin', headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, signal });
  if (!response.ok) throw failure(response.status, await response.text());
  const bytes = new Uint8Array(await response.arrayBuffer());
  // A server that ignored the range sent it all: show the start only.
  const shown = bytes.subarray(0, TEXT_PREVIEW_BYTES);
  const total = Number(response.headers.get('Content-Range')?.split('/')[1] ?? bytes.length);
  return { text: new TextDecoder().decode(shown), cut: total > shown.length };
}
