/**
 * The most bytes one READ answers; a client asking for more gets fewer and asks again (SFTP
 * allows it). Told to clients by limits@openssh.com.
 */
export const MAX_READ_BYTES = 64 * 1024;

/**
 * Session channels one connection may hold open at once; the next is refused until one closes.
 * Each channel is an SFTP session with its own handles and requests in progress, so this is what
 * bounds a connection's share of the server (sync tools open a few; no client needs more).
 */
export const MAX_CHANNELS_PER_CONNECTION = 10;
