/** Whether a base URL points at this machine (a local simulator or gateway). */
export function isLoopbackUrl(baseUrl: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (hostname === '[::1]' || hostname === '::1') return true;
  // The whole 127.0.0.0/8 block is loopback, not only 127.0.0.1.
  return /^127(\.\d{1,3}){3}$/.test(hostname);
}
