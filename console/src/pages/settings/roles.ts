/** What a person whose role is too low reads beside a disabled action. */
export function roleTooLow(role: string | undefined, needs: 'editor' | 'owner', action: string): string {
  return `Your role (${role ?? 'viewer'}) cannot ${action}: it needs ${needs === 'owner' ? 'an owner' : 'an editor or owner'}.`;
}
