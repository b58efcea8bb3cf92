/**
 * Field names that hold a secret or a derivative of one; never written to History. Whole names
 * only: `password_min_length` is a setting, not a secret.
 */
const SECRET_NAME = /^(password|password_hash|new_password|current_password|passphrase|secret|secret_hash|hash|token|key|private_key|session|session_id)$/i;

/**
 * A copy of a record's targets without any field that names a secret, at any depth. The features
 * already pass only names and flags; this is the second lock, so that a field added to a user or a
 * key later cannot reach History (and its exports) by accident.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (SECRET_NAME.test(name)) continue;
    copy[name] = redactSecrets(field);
  }
  return copy;
}
