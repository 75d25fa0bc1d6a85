/** The first letters of first and last name, else the first letter of the email. */
export function initials(user: { first_name: string; last_name: string; email: string }): string {
  const fromNames = `${user.first_name.trim().charAt(0)}${user.last_name.trim().charAt(0)}`;
  return (fromNames || user.email.charAt(0)).toUpperCase();
}
