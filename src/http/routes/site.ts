import { Type } from 'typebox';
import { BUNDLE_EXPIRATION_DAYS, changeSiteSettings, hourSpellingsOf, readSiteSettingsAs, SETTING_RANGES, type SiteView } from '../../identity/index.js';
import { errors } from '../../errors/catalogue.js';
import { isoTime } from '../../lib/time.js';
import { callOf, confirmIdentity } from '../call.js';
import type { ApiInstance } from '../fastify-types.js';
import type { RouteDeps } from '../route-deps.js';
import { errorResponses } from '../schemas.js';
import { asksForReauthentication } from '../openapi/route-markers.js';
import { UPDATE_METHODS } from '../update-methods.js';
import { SiteFacts, siteFacts } from './site-facts.js';

const integerSetting = (name: keyof typeof SETTING_RANGES, description: string) => Type.Integer({ ...SETTING_RANGES[name], description });

/** Files.com's hour spelling of a setting Atrium keeps in minutes: whole hours within the same range. */
const hourSetting = (minutes: keyof typeof SETTING_RANGES, description: string) => Type.Union([Type.Null(), Type.Integer({
  minimum: Math.ceil(SETTING_RANGES[minutes].minimum / 60),
  maximum: Math.floor(SETTING_RANGES[minutes].maximum / 60),
})], { description: `${description}, in hours (Files.com's spelling of \`${minutes}\`); null when that is not a whole number of hours` });

const SettingFields = {
  name: Type.String({ minLength: 1, maxLength: 255, description: 'The site\'s name' }),
  session_expiry_minutes: integerSetting('session_expiry_minutes', 'A session idle this long ends'),
  session_expiry: Type.Number({
    minimum: SETTING_RANGES.session_expiry_minutes.minimum / 60,
    maximum: SETTING_RANGES.session_expiry_minutes.maximum / 60,
    description: 'A session idle this long ends, in hours, a decimal number (Files.com\'s spelling of `session_expiry_minutes`); a write must come to whole minutes',
  }),
  session_max_lifetime_minutes: integerSetting('session_max_lifetime_minutes', 'A session ends this long after login, active or not'),
  user_lockout: Type.Boolean({ description: 'Lock a username out after repeated failed logins' }),
  user_lockout_tries: integerSetting('user_lockout_tries', 'Failed logins that lock a username out'),
  user_lockout_within_minutes: integerSetting('user_lockout_within_minutes', 'The window those failures are counted in'),
  user_lockout_within: hourSetting('user_lockout_within_minutes', 'The window those failures are counted in'),
  user_lockout_lock_period_minutes: integerSetting('user_lockout_lock_period_minutes', 'How long a lockout lasts'),
  user_lockout_lock_period: hourSetting('user_lockout_lock_period_minutes', 'How long a lockout lasts'),
  login_attempts_per_ip_per_hour: integerSetting('login_attempts_per_ip_per_hour', 'Failed logins one client address may make in an hour'),
  users_can_create_api_keys: Type.Boolean({ description: 'Users who are not administrators may create their own API keys' }),
  password_min_length: integerSetting('password_min_length', 'Minimum length of a new password, in characters'),
  history_retention_days: integerSetting('history_retention_days', 'History records older than this many days are removed (docs/history.md)'),
  trash_retention_days: integerSetting('trash_retention_days', 'Deleted files and folders stay this many days in the trash, restorable, then are purged (docs/files.md#trash-and-versions)'),
  max_file_versions: integerSetting('max_file_versions', 'Earlier contents kept per file when it is overwritten, restorable; 0 keeps none (docs/files.md#trash-and-versions)'),
  allowed_ips: Type.String({ maxLength: 16_384, description: 'Newline-separated addresses and CIDR ranges anyone may connect from, besides the users\' and groups\' own lists; empty restricts nothing' }),
  automation_import_private_addresses: Type.Boolean({ description: 'Import automations may fetch from loopback, private, link-local and other internal addresses (docs/automations.md); off by default' }),
  sharing_enabled: Type.Boolean({ description: 'Share links (bundles) may be made (docs/sharing.md); on by default' }),
  bundle_expiration: Type.Union([Type.Null(), Type.Integer(BUNDLE_EXPIRATION_DAYS)], {
    description: 'Days a new share link lasts when its creator sets no expiry, and the longest any link may be set to last; null: links need not expire',
  }),
  bundle_password_required: Type.Boolean({ description: 'Every share link must have a password' }),
  bundle_require_registration: Type.Boolean({ description: 'Every share link asks its visitors to register (name, email, company)' }),
  revoke_bundle_access_on_disable_or_delete: Type.Boolean({ description: "A share link stops working while its creator is disabled (a deleted creator's links always end); on by default" }),
  allow_bundle_names: Type.Boolean({ description: "Creators may choose their share links' codes (the last part of the URL); off by default" }),
  bundle_not_found_message: Type.String({ maxLength: 4096, description: 'What the public page says for a share link that does not exist or no longer works; empty: its own words' }),
  require_2fa: Type.Boolean({ description: 'Two-factor authentication is required of the users require_2fa_user_type names; those without it are led through setting it up at their next sign-in (docs/authentication.md#two-factor-authentication). Turning it on needs two-factor authentication of your own' }),
  require_2fa_user_type: Type.Union([Type.Literal('all'), Type.Literal('site_admins'), Type.Literal('workspace_admins')], { description: 'Whom require_2fa covers: `all` users, `site_admins`, or `workspace_admins` (Workspace and Site Administrators)' }),
  require_2fa_exempt_all_sso_users: Type.Boolean({ description: 'Users who sign in at an identity provider answer to its second factor, not Atrium\'s; on by default' }),
  allowed_2fa_method_totp: Type.Boolean({ description: 'Users may set up an authenticator app (TOTP); on by default' }),
  allowed_2fa_method_webauthn: Type.Boolean({ description: 'Users may set up passkeys (WebAuthn), in the web console; on by default' }),
  allowed_2fa_method_bypass_for_ftp_sftp_dav: Type.Boolean({ description: 'WebDAV and SFTP clients cannot ask for a code: on, a password alone still signs a two-factor user in there; off (the default), those clients must use an API key or an SSH key' }),
};

// What GET /site shows besides the settings: the site's identity and facts of the running server,
// not settings to change.
const SiteBody = Type.Object({
  id: Type.Integer({ description: 'Always 1: Atrium serves one site' }),
  created_at: Type.String({ description: 'When the site was created (its database was made)' }),
  ...SettingFields,
});
const SiteView = Type.Object({
  ...SiteBody.properties,
  ...SiteFacts.properties,
  sftp_host_key_fingerprints: Type.Optional(Type.Array(Type.String(), {
    description: 'When SFTP is on: each host key as `<type> SHA256:<base64>`, what clients show on first connection (docs/sftp.md)',
  })),
});
// Every field optional: a partial update, the same for PUT and PATCH (contract 1.1). id and
// created_at are not settings: sent back by a client that writes everything it read, they are ignored.
// allowed_ips null is no list, as for users and groups.
// The facts too, so that a Site read and written back is accepted; changing one is refused (factsChanged).
const SiteChanges = Type.Partial(Type.Object({ ...SettingFields, allowed_ips: Type.Union([SettingFields.allowed_ips, Type.Null()]), ...SiteFacts.properties }));

function siteBody(site: SiteView) {
  return { id: site.id, created_at: isoTime(site.createdAt), ...site.settings, ...hourSpellingsOf(site.settings) };
}

/** GET and PATCH/PUT /site: the site settings of contract 8, for Site Administrators only. */
export function siteRoutes(app: ApiInstance, deps: RouteDeps): void {
  // GET and the answer to a change show the same: the SDK's Site.update returns a Site.
  const shown = (site: SiteView) => {
    const fingerprints = deps.sftpHostKeyFingerprints;
    const body = { ...siteBody(site), ...siteFacts(fingerprints !== undefined) };
    return fingerprints === undefined ? body : { ...body, sftp_host_key_fingerprints: [...fingerprints] };
  };
  app.get('/site', {
    schema: { summary: 'Show the site and its settings', querystring: Type.Object({}), response: { 200: SiteView, ...errorResponses } },
  }, async (request) => shown(await readSiteSettingsAs(callOf(request, deps))));

  app.route({
    method: UPDATE_METHODS,
    url: '/site',
    schema: { ...asksForReauthentication, summary: 'Rename the site or change its settings (partial update)', body: SiteChanges, response: { 200: SiteView, ...errorResponses } },
    handler: async (request) => {
      const a = callOf(request, deps);
      const facts = siteFacts(deps.sftpHostKeyFingerprints !== undefined);
      const changed = Object.keys(facts).filter((name) => name in request.body && request.body[name as keyof typeof facts] !== facts[name as keyof typeof facts]);
      if (changed.length > 0) throw errors.paramsInvalid(Object.fromEntries(changed.map((name) => [name, ['is fixed on Atrium and cannot be changed']])));
      const settings = Object.fromEntries(Object.entries(request.body).filter(([name]) => !(name in facts)));
      return shown(await changeSiteSettings(a, settings, confirmIdentity(request, deps, a)));
    },
  });
}
