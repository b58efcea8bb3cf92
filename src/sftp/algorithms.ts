import type { Algorithms } from 'ssh2';

/**
 * The transport algorithms the server offers, in order of preference (docs/sftp.md lists them):
 * modern only. No SHA-1 anywhere (key exchange, MAC or the `ssh-rsa` signature: an RSA host key
 * signs with `rsa-sha2-*`), no CBC ciphers, no 3DES, no MD5, no compression. Every current client
 * (OpenSSH since 7.2, WinSCP, FileZilla, rclone) speaks these.
 */
export const SFTP_ALGORITHMS: Algorithms = {
  kex: ['curve25519-sha256', 'curve25519-sha256@libssh.org', 'ecdh-sha2-nistp256', 'ecdh-sha2-nistp384', 'ecdh-sha2-nistp521', 'diffie-hellman-group16-sha512', 'diffie-hellman-group18-sha512', 'diffie-hellman-group14-sha256'],
  serverHostKey: ['ssh-ed25519', 'rsa-sha2-512', 'rsa-sha2-256'],
  cipher: ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'chacha20-poly1305@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr'],
  hmac: ['hmac-sha2-256-etm@openssh.com', 'hmac-sha2-512-etm@openssh.com', 'hmac-sha2-256', 'hmac-sha2-512'],
  compress: ['none'],
};
