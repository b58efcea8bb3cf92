/** Lets the browser save `url` (a signed link, a Blob's address) under `name`, as a click on a download link would. */
export function saveAs(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noreferrer';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Lets the browser save `blob` under `name`; its address is freed once the browser has had a minute to start the download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  saveAs(url, name);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
