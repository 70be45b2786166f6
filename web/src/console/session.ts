// The API token of the console: kept for the tab's session only (sessionStorage, which the browser drops
// when the tab closes and never shares with other tabs), never in the URL, localStorage or a cookie.

const KEY = 'cfrules-console-token';

export const session = {
  token(): string | undefined {
    return sessionStorage.getItem(KEY) ?? undefined;
  },
  signIn(token: string): void {
    sessionStorage.setItem(KEY, token);
  },
  signOut(): void {
    sessionStorage.removeItem(KEY);
  },
};
