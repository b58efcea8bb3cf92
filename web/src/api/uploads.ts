import { api } from './client';
import { encodePath } from './files';

interface UploadPart {
  ref: string;
  upload_uri: string;
  partsize: number;
  part_number: number;
}

export type ProgressListener = (sentBytes: number) => void;

/**
 * Uploads one file through the Files.com part protocol: begin, send each part to its signed
 * `upload_uri`, end. Only one part (a slice of the File, read by the browser as it is sent) is
 * in flight at a time, so a file of any size never sits in memory.
 */
export async function uploadFile(path: string, file: File, onProgress: ProgressListener, signal: AbortSignal): Promise<void> {
  const url = `/files/${encodePath(path)}`;
  let part = (await api<UploadPart>('POST', url, { body: { action: 'put', mkdir_parents: true }, signal })).data;
  const ref = part.ref;
  let offset = 0;
  let number = 1;
  while (offset < file.size) {
    if (number > 1) part = (await api<UploadPart>('POST', url, { body: { action: 'put', ref, part: number }, signal })).data;
    const slice = file.slice(offset, offset + part.partsize);
    const start = offset;
    await putPart(part.upload_uri, slice, (loaded) => onProgress(start + loaded), signal);
    offset += slice.size;
    number += 1;
  }
  await api('POST', url, { body: { action: 'end', ref }, signal });
  onProgress(file.size);
}

/** XMLHttpRequest rather than fetch: it is what reports upload progress. */
function putPart(uri: string, body: Blob, onProgress: ProgressListener, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', uri);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new Error(`The part was refused (${request.status}).`)));
    request.onerror = () => reject(new Error('The connection to the server was lost.'));
    request.onabort = () => reject(new DOMException('Cancelled', 'AbortError'));
    if (signal.aborted) return reject(new DOMException('Cancelled', 'AbortError'));
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });
}
