// Fixed user-facing texts. Both the server and the web app show these exact strings.
export const messages = {
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be at least 6 characters',
  passwordsDontMatch: "Passwords don't match",
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  usernameTaken: 'This username is already taken',
  noToken: 'No token found',
  notSignedIn: 'Not signed in',
  sessionExpired: 'Your session has expired. Please sign in again.',
  currentPasswordRequired: 'Enter your current password',
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordChanged: 'Password changed',
  profileUpdated: 'Profile updated',
} as const;

export const PASSWORD_MIN_LENGTH = 6;
