// oidc-provider ships no types; the tests use a few of its parts.
declare module 'oidc-provider' {
  const Provider: any;
  export default Provider;
}
