// Connect: what another tool needs to reach this server. The only entrance to the feature.

export { connectionDetails, type ConnectionDetails, type SftpListenerFacts } from './connection-details.js';
