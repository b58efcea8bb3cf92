/**
 * A client's modification time as WebDAV clients send it, read into milliseconds; the file
 * session keeps it as the entry's `provided_mtime` (what it may be is decided there).
 *
 * - PROPPATCH of `DAV:getlastmodified` (litmus-style clients, davfs) or of Windows'
 *   `Win32LastModifiedTime` (the Explorer's mini-redirector), an HTTP date;
 * - PUT with `X-OC-Mtime` (rclone with `vendor = owncloud` or `nextcloud`, the ownCloud and
 *   Nextcloud clients), seconds since 1970, or with `Last-Modified` (lftp's `mirror -R`), an
 *   HTTP date.
 */

const MICROSOFT_NS = 'urn:schemas-microsoft-com:';

/** Whether a PROPPATCH property names the entry's modification time rather than a dead property. */
export function isModifiedTimeProperty(ns: string, name: string): boolean {
  return (ns === 'DAV:' && name === 'getlastmodified') || (ns === MICROSOFT_NS && name === 'Win32LastModifiedTime');
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/**
 * RFC 9110's IMF-fixdate (`Thu, 02 Jan 2020 03:04:05 GMT`), with the spacing relaxed as lftp
 * writes it (`Thu,  2 Jan 2020 ...`) and the weekday optional; always GMT. Date.parse is not
 * used: it reads many other forms, some in the server's own zone.
 */
const HTTP_DATE = /^\s*(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2}):(\d{2})\s+(?:GMT|UTC)\s*$/;

/** An HTTP date in milliseconds, or undefined when the text is not one. */
export function httpDateOf(text: string): number | undefined {
  const match = HTTP_DATE.exec(text);
  if (match === null) return undefined;
  const [, day, monthName, year, hours, minutes, seconds] = match as unknown as [string, string, string, string, string, string, string];
  const month = MONTHS.indexOf(monthName.toLowerCase());
  if (month < 0) return undefined;
  const time = Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes), Number(seconds));
  // Date.UTC rolls 31 Feb over into March: a day the month does not have is no date.
  return new Date(time).getUTCDate() === Number(day) && Number(hours) < 24 && Number(minutes) < 60 && Number(seconds) < 60 ? time : undefined;
}

/** `X-OC-Mtime`: whole seconds since 1970, or with a fraction; undefined when it is not such a number. */
export function unixSecondsOf(text: string): number | undefined {
  if (!/^\s*\d{1,15}(?:\.\d{1,9})?\s*$/.test(text)) return undefined;
  return Math.round(Number(text) * 1000);
}
