import type { IssuerContext } from './issuer-context.js';
import type { RealmUser } from './store.js';

/** Whether the user's account is locked now (a wrong password came too often). */
export function isLocked(context: IssuerContext, user: RealmUser): boolean {
  return user.lockedUntil !== null && user.lockedUntil.getTime() > context.now();
}

/**
 * Keycloak's brute-force detection: a second failure within the quick-login window locks the
 * account for the minimum wait; every failureFactor-th failure locks it for a growing wait.
 */
export async function recordFailure(context: IssuerContext, user: RealmUser): Promise<void> {
  const { bruteForce } = context.settings;
  if (!bruteForce.enabled) return;
  const now = context.now();
  const { failures, previousFailureAt } = await context.store.recordFailure(
    user._id,
    new Date(now),
  );
  let waitSeconds = 0;
  if (previousFailureAt && now - previousFailureAt.getTime() < bruteForce.quickLoginCheckMs) {
    waitSeconds = bruteForce.minimumQuickLoginWaitSeconds;
  }
  if (failures % bruteForce.failureFactor === 0) {
    waitSeconds = Math.max(
      waitSeconds,
      Math.min(
        bruteForce.waitIncrementSeconds * (failures / bruteForce.failureFactor),
        bruteForce.maxWaitSeconds,
      ),
    );
  }
  if (waitSeconds > 0) {
    await context.store.lockUntil(user._id, new Date(now + waitSeconds * 1000));
  }
}
