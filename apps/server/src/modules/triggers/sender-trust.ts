/**
 * Whether an email's sender is inside the organization: the domain of their address is one of its
 * trusted sender domains, or a subdomain of one (`example.com` trusts `eu.example.com`, not
 * `badexample.com`). The domains are stored trimmed and lowercased (organization-settings.ts); an
 * address without a domain is trusted by none. docs/product-rules.md, People in the loop.
 */
export function isTrustedSender(address: string, domains: readonly string[]): boolean {
  const at = address.lastIndexOf('@');
  if (at < 0) return false;
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  if (!domain) return false;
  return domains.some((trusted) => domain === trusted || domain.endsWith(`.${trusted}`));
}
