import { api } from './client';

/** How another tool reaches this server (GET /connection_details). */
export interface ConnectionDetails {
  webdav_url: string;
  sftp_enabled: boolean;
  sftp_host?: string;
  sftp_port?: number;
  sftp_host_key_fingerprints?: string[];
}

export async function getConnectionDetails(signal?: AbortSignal): Promise<ConnectionDetails> {
  return (await api<ConnectionDetails>('GET', '/connection_details', { homeContext: true, ...(signal === undefined ? {} : { signal }) })).data;
}
