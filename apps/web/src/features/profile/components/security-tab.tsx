import { ChangePasswordForm } from './change-password-form';
import { TwoFactorStatus } from './two-factor-status';

/** The Security tab: change the password; see whether two-factor sign-in is on. */
export function SecurityTab({ twoFactorEnabled }: { twoFactorEnabled: boolean }) {
  return (
    <div className="flex flex-col gap-6">
      <ChangePasswordForm />
      <TwoFactorStatus enabled={twoFactorEnabled} />
    </div>
  );
}
