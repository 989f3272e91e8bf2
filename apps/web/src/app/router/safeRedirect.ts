/**
 * Where to go after logging in: the `redirect` query parameter when it is a path of this
 * site, else '/'. '//host' and '/\host' are other origins to a browser, and browsers drop
 * tabs and newlines from URLs ('/\t/host' is '//host'), so those are refused too.
 */
export function safeRedirect(redirect: string | null | undefined): string {
  if (!redirect?.startsWith('/')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\\]/.test(redirect) || redirect.startsWith('//')) return '/';
  if (redirect === '/login' || redirect.startsWith('/login?') || redirect.startsWith('/login/')) return '/';
  return redirect;
}
