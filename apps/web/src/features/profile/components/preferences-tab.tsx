import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { User } from '@cloudvault/contract/accounts';
import { buttonClasses } from '../../../components/ui/button';
import { storedThemePreference } from '../../../lib/theme';
import { useOverview } from '../api/get-overview';
import { formatDateTime } from '../format-date-time';
import { OverviewState } from './overview-state';
import { ProfileCard } from './profile-card';
import { Fact, FactList } from './fact-list';

/** The Preferences tab: real account facts and the language and theme in use. */
export function PreferencesTab({ user }: { user: User }) {
  const { t, i18n } = useTranslation();
  const overview = useOverview();
  const language = i18n.resolvedLanguage ?? 'en';

  return (
    <div className="flex flex-col gap-6">
      <ProfileCard title={t('profile.preferences.accountTitle')}>
        <OverviewState query={overview}>
          {(data) => (
            <FactList>
              <Fact term={t('profile.preferences.created')}>{formatDateTime(data.createdAt, i18n.language)}</Fact>
              <Fact term={t('profile.preferences.plan')}>{t(`common.plans.${user.plan}`)}</Fact>
              <Fact term={t('profile.preferences.lastSignIn')}>
                {data.lastSignIn ? formatDateTime(data.lastSignIn.at, i18n.language) : t('profile.preferences.never')}
              </Fact>
              <Fact term={t('profile.preferences.device')}>{data.lastSignIn?.device ?? t('profile.preferences.never')}</Fact>
            </FactList>
          )}
        </OverviewState>
      </ProfileCard>
      <ProfileCard
        title={t('profile.preferences.appearanceTitle')}
        actions={
          <Link to="/settings#appearance" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            {t('profile.preferences.change')}
          </Link>
        }
      >
        <FactList>
          <Fact term={t('profile.preferences.language')}>{t(`settings.appearance.languages.${language as 'en'}`)}</Fact>
          <Fact term={t('profile.preferences.theme')}>{t(`settings.appearance.themes.${storedThemePreference()}`)}</Fact>
        </FactList>
      </ProfileCard>
    </div>
  );
}
