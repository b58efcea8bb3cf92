import { sendPattern } from '../transfer.js';

const API = '/api/rest/v1';

interface UploadPart {
  ref: string;
  upload_uri: string;
  partsize: number;
  part_number: number;
}

/**
 * Uploads `bytes` of the bench's pattern to `filePath` as the Files.com SDKs do (docs/files.md):
 * File.beginUpload, then for each part the URL to send it to and a PUT of its bytes to that URL
 * without a credential, one part after another in the part size Atrium offers (the JavaScript
 * SDK's behaviour with `parallel_parts: false`), then `action=end`. Answers the file's SHA-256 as
 * Atrium recorded it.
 */
export async function partUpload(baseUrl: string, filePath: string, headers: Record<string, string>, bytes: number): Promise<string> {
  const json = { ...headers, 'content-type': 'application/json' };
  const first = await post<UploadPart[]>(`${baseUrl}${API}/file_actions/begin_upload/${filePath}`, json, { size: bytes, mkdir_parents: true }, 200);
  const begun = first[0] as UploadPart;
  const partSize = begun.partsize;
  let offer = begun;
  for (let part = 1, sent = 0; sent < bytes || part === 1; part += 1) {
    if (part > 1) offer = await post<UploadPart>(`${baseUrl}${API}/files/${filePath}`, json, { action: 'put', ref: begun.ref, part }, 200);
    const length = Math.min(partSize, bytes - sent);
    const answer = await sendPattern(offer.upload_uri, 'PUT', {}, length);
    if (answer.status !== 200) throw new Error(`part ${part} of ${filePath} answered ${answer.status} ${answer.text.slice(0, 200)}`);
    sent += length;
    if (bytes === 0) break;
  }
  const file = await post<{ sha256: string | null }>(`${baseUrl}${API}/files/${filePath}`, json, { action: 'end', ref: begun.ref }, 201);
  return file.sha256 ?? '';
}

async function post<T>(url: string, headers: Record<string, string>, body: unknown, expected: number): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) }).catch((error: unknown) => {
    // fetch says only "fetch failed"; what failed (a closed connection, say) is its cause.
    throw new Error(`POST ${new URL(url).pathname}: ${String((error as Error).cause ?? error)}`);
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`POST ${new URL(url).pathname} answered ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}
