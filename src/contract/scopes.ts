/** Key scopes and the kinds of key offered (section 5). */
export const SCOPES = ['documents:create', 'documents:preview', 'documents:read', 'account:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const KEY_KINDS = {
  full: { label: 'Full access', scopes: ['documents:create', 'documents:preview', 'documents:read', 'account:read'] },
  preview: { label: 'Preview only', scopes: ['documents:preview', 'documents:read', 'account:read'] },
} as const satisfies Record<string, { label: string; scopes: readonly Scope[] }>;
export type KeyKind = keyof typeof KEY_KINDS;
