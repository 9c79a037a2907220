/** An account's role in the family's words. */
export function roleName(role: string): string {
  return role === 'admin' ? 'Owner' : 'Family member';
}
