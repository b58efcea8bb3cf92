import { Alert, Button, Center, Loader, NumberInput, Select, Stack, Switch, Text, Textarea, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { SignInProviders } from '../admin/SignInProviders';
import { changeSite, readSite, type SiteSettings } from '../api/site';

type NumericSetting = { [K in keyof SiteSettings]: SiteSettings[K] extends number ? K : never }[keyof SiteSettings];
type FlagSetting = { [K in keyof SiteSettings]: SiteSettings[K] extends boolean ? K : never }[keyof SiteSettings];

/** The share links' switches (docs/sharing.md#site-settings). */
const SHARING_FLAGS: { name: FlagSetting; label: string; description?: string }[] = [
  { name: 'sharing_enabled', label: 'Users may make share links', description: 'Off, no link can be made or shared, and existing links stop working.' },
  { name: 'bundle_password_required', label: 'Every share link needs a password' },
  { name: 'bundle_require_registration', label: 'Every share link asks visitors to register' },
  { name: 'revoke_bundle_access_on_disable_or_delete', label: "A disabled user's share links stop working", description: "A deleted user's links always end." },
  { name: 'allow_bundle_names', label: 'Creators may choose a share link\'s code', description: 'Off, every link gets a random code no one can guess.' },
];

/** Who the site's two-factor requirement applies to. */
const REQUIRE_2FA_USERS: { value: SiteSettings['require_2fa_user_type']; label: string }[] = [
  { value: 'all', label: 'Everyone' },
  { value: 'site_admins', label: 'Site Administrators' },
  { value: 'workspace_admins', label: 'Workspace and Site Administrators' },
];

/** The two-factor switches besides the requirement itself (docs/authentication.md#two-factor-authentication). */
const TWO_FACTOR_FLAGS: { name: FlagSetting; label: string; description?: string }[] = [
  { name: 'require_2fa_exempt_all_sso_users', label: 'People who sign in through single sign-on need not use it', description: 'Their organisation\'s sign-in service can ask for its own second step.' },
  { name: 'allowed_2fa_method_totp', label: 'Authenticator apps may be used', description: 'A 6-digit code from an app on the phone.' },
  { name: 'allowed_2fa_method_webauthn', label: 'Passkeys may be used', description: 'The device\'s fingerprint, face or PIN, or a security key.' },
  {
    name: 'allowed_2fa_method_bypass_for_ftp_sftp_dav',
    label: 'A password alone still signs in to WebDAV and SFTP',
    description: 'WebDAV and SFTP clients cannot ask for a code: with this on, a password alone still signs in there; off, those clients must use an API key or an SSH key.',
  },
];

const NUMBERS: { name: NumericSetting; label: string; min: number; max: number }[] = [
  { name: 'session_expiry_minutes', label: 'Sign out after this many idle minutes', min: 1, max: 525_600 },
  { name: 'session_max_lifetime_minutes', label: 'Sign out after this many minutes in all', min: 1, max: 525_600 },
  { name: 'user_lockout_tries', label: 'Failed sign-ins before an account is locked', min: 1, max: 1000 },
  { name: 'user_lockout_within_minutes', label: '… counted within this many minutes', min: 1, max: 10_080 },
  { name: 'user_lockout_lock_period_minutes', label: 'Minutes an account stays locked', min: 1, max: 10_080 },
  { name: 'login_attempts_per_ip_per_hour', label: 'Failed sign-ins per client address per hour', min: 1, max: 1_000_000 },
  { name: 'password_min_length', label: 'Shortest password allowed', min: 8, max: 128 },
  { name: 'history_retention_days', label: 'Keep History records for this many days', min: 1, max: 36_500 },
  { name: 'trash_retention_days', label: 'Keep deleted files and folders in the trash for this many days', min: 1, max: 36_500 },
  { name: 'max_file_versions', label: 'Earlier versions kept of each file (0 keeps none)', min: 0, max: 1000 },
];

/** Site Administrators: the site's authentication settings, and how long History, the trash and versions are kept. */
export function SiteSettingsPage() {
  const [settings, setSettings] = useState<SiteSettings | undefined>();
  const [result, setResult] = useState<{ ok: boolean; text: string } | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    readSite().then(setSettings, (caught: unknown) => setResult({ ok: false, text: caught instanceof Error ? caught.message : 'The settings could not be read.' }));
  }, []);

  async function save(event: FormEvent) {
    event.preventDefault();
    if (settings === undefined) return;
    setBusy(true);
    setResult(undefined);
    try {
      setSettings(await changeSite(settings));
      setResult({ ok: true, text: 'The settings were saved.' });
    } catch (caught) {
      setResult({ ok: false, text: caught instanceof Error ? caught.message : 'The settings were not saved.' });
    } finally {
      setBusy(false);
    }
  }

  if (settings === undefined) {
    return result === undefined ? <Center><Loader size="sm" aria-label="Loading" /></Center> : <Alert color="red" role="alert">{result.text}</Alert>;
  }
  const set = (change: Partial<SiteSettings>) => setSettings({ ...settings, ...change });
  return (
    <Stack gap="xl">
    <form onSubmit={save} aria-labelledby="site-settings-title">
      <Stack maw={480}>
        <Title order={1} size="h2" id="site-settings-title">Site settings</Title>
        {result !== undefined && <Alert color={result.ok ? 'teal' : 'red'} role={result.ok ? 'status' : 'alert'}>{result.text}</Alert>}
        <Switch label="Lock an account after repeated failed sign-ins" checked={settings.user_lockout} onChange={(e) => set({ user_lockout: e.currentTarget.checked })} />
        <Switch label="Users may create their own API keys" checked={settings.users_can_create_api_keys} onChange={(e) => set({ users_can_create_api_keys: e.currentTarget.checked })} />
        {NUMBERS.map((field) => (
          <NumberInput key={field.name} label={field.label} min={field.min} max={field.max} allowDecimal={false} allowNegative={false}
            value={settings[field.name]} onChange={(value) => set({ [field.name]: typeof value === 'number' ? value : Number(value) })} />
        ))}
        <Textarea label="Allowed IP addresses" description="One address or CIDR range a line, for everyone; users and groups may add their own. Empty allows any address. It must include the address you are connecting from."
          autosize minRows={2} maxRows={10} value={settings.allowed_ips} onChange={(e) => set({ allowed_ips: e.currentTarget.value })} />
        <Switch label="Import automations may fetch from internal addresses" description="Loopback, private and link-local addresses, such as this server's own services or a cloud metadata service. Leave it off unless imports must reach your internal network."
          checked={settings.automation_import_private_addresses} onChange={(e) => set({ automation_import_private_addresses: e.currentTarget.checked })} />
        <Title order={2} size="h3">Two-factor authentication</Title>
        <Text size="sm" c="dimmed">
          Besides their password, people confirm it is them with a code from an app on their phone or with a passkey. Whoever the
          requirement applies to and has not set it up is led through it at their next sign-in; an administrator may also require it,
          or not, of one user.
        </Text>
        <Switch label="Require two-factor authentication" checked={settings.require_2fa} onChange={(e) => set({ require_2fa: e.currentTarget.checked })} />
        <Select label="Required of" allowDeselect={false} data={REQUIRE_2FA_USERS} value={settings.require_2fa_user_type} disabled={!settings.require_2fa}
          onChange={(value) => set({ require_2fa_user_type: REQUIRE_2FA_USERS.find((option) => option.value === value)?.value ?? 'all' })} />
        {TWO_FACTOR_FLAGS.map((flag) => (
          <Switch key={flag.name} label={flag.label} description={flag.description} checked={settings[flag.name]} onChange={(e) => set({ [flag.name]: e.currentTarget.checked })} />
        ))}
        <Title order={2} size="h3">Share links</Title>
        {SHARING_FLAGS.map((flag) => (
          <Switch key={flag.name} label={flag.label} description={flag.description} checked={settings[flag.name]} onChange={(e) => set({ [flag.name]: e.currentTarget.checked })} />
        ))}
        <NumberInput label="Share links expire after this many days" description="Also the longest a link may be set to last. Empty: links need not expire."
          min={1} max={36_500} allowDecimal={false} allowNegative={false} value={settings.bundle_expiration ?? ''}
          onChange={(value) => set({ bundle_expiration: value === '' ? null : Number(value) })} />
        <Textarea label="Message for a missing or ended share link" description="Empty: the page's own words." autosize minRows={1} maxRows={6}
          value={settings.bundle_not_found_message} onChange={(e) => set({ bundle_not_found_message: e.currentTarget.value })} />
        <Button type="submit" loading={busy} w="fit-content">Save</Button>
      </Stack>
    </form>
    <SignInProviders />
    </Stack>
  );
}
