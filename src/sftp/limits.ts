/**
 * The most bytes one READ answers; a client asking for more gets fewer and asks again (SFTP
 * allows it). Told to clients by limits@openssh.com.
 */
export const MAX_READ_BYTES = 64 * 1024;
