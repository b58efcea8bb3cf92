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
