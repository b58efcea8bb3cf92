/** A user's parameters the SDK documents for both create and update that Atrium does not take. */
const USER_PARAMETERS_NOT_TAKEN = [
  'avatar_file', 'avatar_delete', 'change_password', 'change_password_confirmation', 'grant_permission',
  'group_id', 'imported_password_hash', 'password_confirmation', 'announcements_read', 'attachments_permission',
  'billing_permission', 'bypass_user_lifecycle_rules', 'bypass_site_allowed_ips',
  'header_text', 'notification_daily_send_time', 'office_integration_enabled', 'password_validity_days',
  'readonly_site_admin', 'receive_admin_alerts', 'require_login_by', 'self_managed', 'skip_welcome_screen',
  'subscribe_to_newsletter', 'user_home',
] as const;

/** An automation's parameters the SDK documents for create and update that Atrium does not take. */
const AUTOMATION_PARAMETERS_NOT_TAKEN = ['legacy_sync_ids', 'sync_ids', 'holiday_region', 'always_serialize_jobs', 'legacy_folder_matching'];

/**
 * A share link's parameters the SDK documents for create and update that Atrium does not take:
 * custom forms, clickwraps, inboxes, snapshots, watermarks and mailed receipts are not in Atrium.
 */
const BUNDLE_PARAMETERS_NOT_TAKEN = [
  'form_field_set_id', 'clickwrap_id', 'inbox_id', 'create_snapshot', 'finalize_snapshot', 'send_email_receipt_to_uploader', 'watermark_attachment_file',
];

/**
 * The parameters the pinned Files.com SDK (files.com 1.2.314) documents for a write method that
 * Atrium does not honour, by route (`METHOD path`; PUT shares PATCH's list). They are refused with
 * `bad-request/request-params-invalid` naming them (refuse-unsupported-parameters.ts), never
 * accepted and ignored. Derived from the SDK's model documents ("Parameters" of each Create/Update
 * section) less the route's body schema; test/wire/sdk-write-parameters.test.ts keeps it true.
 * A model's read-only attributes that the SDK's `save()` echoes back are not parameters, so they
 * are not here and stay ignored.
 */
export const SDK_PARAMETERS_NOT_SUPPORTED: Readonly<Record<string, readonly string[]>> = {
  // A user is created enabled; `disabled` is taken on update.
  'POST /users': [...USER_PARAMETERS_NOT_TAKEN, 'disabled'],
  'PATCH /users/:id': USER_PARAMETERS_NOT_TAKEN,
  // A key limited to a folder: Atrium's keys reach what their user reaches.
  'POST /api_keys': ['path'],
  'PATCH /site': [
    'subdomain', 'domain', 'domain_hsts_header', 'domain_letsencrypt_chain', 'email', 'reply_to_email',
    'welcome_email_enabled', 'ask_about_overwrites',
    'show_request_access_link', 'welcome_email_cc', 'welcome_email_subject', 'welcome_custom_text',
    'language', 'windows_mode_ftp', 'default_time_zone', 'desktop_app', 'desktop_app_session_ip_pinning',
    'desktop_app_session_lifetime', 'mobile_app', 'mobile_app_session_ip_pinning',
    'mobile_app_session_lifetime', 'folder_permissions_groups_only', 'welcome_screen',
    'office_integration_available', 'office_integration_type', 'pin_all_remote_servers_to_site_region',
    'motd_text', 'motd_use_for_ftp', 'motd_use_for_sftp', 'left_navigation_visibility',
    'additional_text_file_types', 'bundle_require_note', 'bundle_send_shared_receipts',
    'legacy_checksums_mode', 'migrate_remote_server_sync_to_sync', 'as2_message_retention_days',
    'ssl_required', 'sftp_insecure_ciphers', 'sftp_insecure_diffie_hellman',
    'disable_files_certificate_generation', 'include_password_in_welcome_email', 'allowed_countries',
    'disallowed_countries', 'days_to_retain_backups', 'max_prior_passwords', 'password_validity_days',
    'password_require_letter', 'password_require_mixed', 'password_require_special',
    'password_require_number', 'password_require_unbreached', 'require_logout_from_bundles_and_inboxes',
    'dav_user_root_enabled', 'sftp_user_root_enabled', 'disable_password_reset', 'immutable_files',
    
    'bundle_require_share_recipient', 'bundle_registration_notifications', 'bundle_activity_notifications',
    'bundle_upload_receipt_notifications', 'document_edits_in_bundle_allowed',
    'password_requirements_apply_to_bundles', 'prevent_root_permissions_for_non_site_admins',
    'opt_out_global', 'custom_namespace', 'non_sso_groups_allowed', 'non_sso_users_allowed',
    'snapshot_sharing_enabled', 'user_requests_enabled', 'user_requests_notify_admins',
    'ftp_enabled', 'show_user_notifications_log_in_link', 'sftp_host_key_type', 'active_sftp_host_key_id',
    'protocol_access_groups_only', 'bundle_watermark_value',
    'group_admins_can_set_user_password', 'bundle_recipient_blacklist_free_email_domains',
    'bundle_recipient_blacklist_domains', 'admins_bypass_locked_subfolders', 'allowed_2fa_method_sms',
    'allowed_2fa_method_yubi', 'allowed_2fa_method_email', 'allowed_2fa_method_static', 'color2_top', 'color2_left', 'color2_link', 'color2_text',
    'color2_top_text', 'site_header', 'site_footer', 'site_public_header', 'site_public_footer',
    'login_help_text', 'use_dedicated_ips_for_smtp', 'smtp_address', 'smtp_authentication', 'smtp_from',
    'smtp_username', 'smtp_port', 'ldap_enabled', 'ldap_type', 'ldap_host', 'ldap_host_2', 'ldap_host_3',
    'ldap_port', 'ldap_secure', 'ldap_username', 'ldap_username_field', 'ldap_domain', 'ldap_user_action',
    'ldap_group_action', 'ldap_user_include_groups', 'ldap_group_exclusion', 'ldap_group_inclusion',
    'ldap_base_dn', 'uploads_via_email_authentication', 'icon16_file', 'icon16_delete', 'icon32_file',
    'icon32_delete', 'icon48_file', 'icon48_delete', 'icon128_file', 'icon128_delete', 'logo_file',
    'logo_delete', 'bundle_watermark_attachment_file', 'bundle_watermark_attachment_delete',
    'login_page_background_image_file', 'login_page_background_image_delete', 'disable_2fa_with_delay',
    'ldap_password_change', 'ldap_password_change_confirmation', 'smtp_password',
  ],
  // Remote server syncs, holidays and reusable schedules are not in Atrium; runs are never forced
  // one at a time, and folder matching has only the current behaviour (docs/automations.md#fields).
  'POST /automations': AUTOMATION_PARAMETERS_NOT_TAKEN,
  'PATCH /automations/:id': AUTOMATION_PARAMETERS_NOT_TAKEN,
  // Custom forms, clickwraps, inboxes, snapshots, watermarks and mailed receipts (docs/sharing.md#fields).
  'POST /bundles': [...BUNDLE_PARAMETERS_NOT_TAKEN, 'snapshot_id'],
  'PATCH /bundles/:id': [...BUNDLE_PARAMETERS_NOT_TAKEN, 'watermark_attachment_delete'],
};
