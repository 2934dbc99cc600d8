// The paths of `endpoints.auth` (index.ts says why they are apart from the descriptors).
export const signup = '/api/auth/signup';
export const login = '/api/auth/login';
export const logout = '/api/auth/logout';
export const organizations = '/api/auth/organizations';
export const switchOrganization = '/api/auth/switch-organization';
export const me = '/api/auth/me';
export const changePassword = '/api/auth/change-password';
export const forgotPassword = '/api/auth/forgot-password';
export const resetPassword = '/api/auth/reset-password';
export const verifyEmail = '/api/auth/verify-email';
export const resendVerification = '/api/auth/resend-verification';
