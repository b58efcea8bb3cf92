import { Type } from 'typebox';

/**
 * Fields of Files.com's Site that describe what this server does rather than a setting one can
 * change: Atrium behaves one way, always, so each is a fact to read (PATCH /site does not take
 * them). Integrations check some of them before relying on a feature (the checksums, the doors),
 * so they are answered rather than left out.
 */
export const SiteFacts = Type.Object({
  sftp_enabled: Type.Boolean({ description: 'SFTP is listening (started with ATRIUM_SFTP_PORT)' }),
  dav_enabled: Type.Boolean({ description: 'Always true: WebDAV is served at /dav' }),
  always_mkdir_parents: Type.Boolean({ description: 'Always true: uploads create missing parent folders unless mkdir_parents=false' }),
  use_provided_modified_at: Type.Boolean({ description: 'Always true: uploads, folders and PATCH /files keep a client-given provided_mtime' }),
  users_can_create_ssh_keys: Type.Boolean({ description: 'Always true: every user may add its own SSH keys' }),
  calculate_file_checksums_sha256: Type.Boolean({ description: 'Always true: sha256 is computed for every file as it arrives' }),
  calculate_file_checksums_md5: Type.Boolean({ description: 'Always true: md5 is computed for every file, as it arrives for one of up to 128 KiB, after its upload for a larger one' }),
  calculate_file_checksums_crc32: Type.Boolean({ description: 'Always true: crc32 is computed for every file, as it arrives for one of up to 128 KiB, after its upload for a larger one' }),
  calculate_file_checksums_sha1: Type.Boolean({ description: 'Always true: sha1 is computed for every file, as it arrives for one of up to 128 KiB, after its upload for a larger one' }),
});

export function siteFacts(sftpListening: boolean) {
  return {
    sftp_enabled: sftpListening,
    dav_enabled: true,
    always_mkdir_parents: true,
    use_provided_modified_at: true,
    users_can_create_ssh_keys: true,
    calculate_file_checksums_sha256: true,
    calculate_file_checksums_md5: true,
    calculate_file_checksums_crc32: true,
    calculate_file_checksums_sha1: true,
  };
}
