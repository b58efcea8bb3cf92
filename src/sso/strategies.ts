/**
 * Files.com's `provider` values an OpenID Connect provider can be recognised as, by its issuer's
 * host; anything else is none (null on the wire).
 */
export type StrategyProvider = 'google' | 'okta' | 'azure' | 'auth0' | 'onelogin' | 'jumpcloud' | 'duo';

const BY_HOST: readonly [RegExp, StrategyProvider][] = [
  [/(^|\.)accounts\.google\.com$/, 'google'],
  [/(^|\.)(okta|oktapreview|okta-emea)\.com$/, 'okta'],
  [/(^|\.)(login\.microsoftonline\.com|login\.microsoftonline\.us|sts\.windows\.net|ciamlogin\.com)$/, 'azure'],
  [/(^|\.)auth0\.com$/, 'auth0'],
  [/(^|\.)onelogin\.com$/, 'onelogin'],
  [/(^|\.)jumpcloud\.com$/, 'jumpcloud'],
  [/(^|\.)duosecurity\.com$/, 'duo'],
];

/** The provider an issuer is, guessed from its host (`login.microsoftonline.com` is Microsoft Entra ID, Files.com's `azure`). */
export function strategyProviderOf(issuerUrl: string): StrategyProvider | null {
  let host: string;
  try {
    host = new URL(issuerUrl).hostname.toLowerCase();
  } catch {
    return null;
  }
  return BY_HOST.find(([pattern]) => pattern.test(host))?.[1] ?? null;
}
