import { RegisterPage } from '../../features/auth/components/register-page';
import { SingleSignOnOptions } from '../../features/single-sign-on/components/single-sign-on-options';

/** /register: the registration form, with single sign-on from its feature. */
export function RegisterRoute() {
  return <RegisterPage singleSignOn={<SingleSignOnOptions mode="signUp" />} />;
}
