import type { User } from '@debate/contracts';
import type { UserDocument } from '../schemas/user.schema.js';

/** The user of the contracts; `verificationRequired`: the deployment asks for a verified address. */
export function toUser(document: UserDocument, verificationRequired: boolean): User {
  const emailVerified = document.emailVerified === true;
  return {
    id: document._id,
    email: document.email,
    displayName: document.displayName ?? null,
    photoURL: document.photoURL ?? null,
    isPro: document.isPro === true,
    createdAt: document.createdAt.toISOString(),
    emailVerified,
    mustVerifyEmail: verificationRequired && !emailVerified,
  };
}
