import { Activity, Palette, Shield, User as UserIcon } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/ui/page-title';
import { Tabs, type TabItem } from '../../../components/ui/tabs';
import { useSession } from '../../../hooks/use-session';
import { ActivityTab } from './activity-tab';
import { PreferencesTab } from './preferences-tab';
import { ProfileDetailsTab } from './profile-details-tab';
import { ProfileSummary } from './profile-summary';
import { SecurityTab } from './security-tab';

type TabId = 'profile' | 'security' | 'preferences' | 'activity';

/** Profile (docs/product.md#profile): the user's names, password, two-factor status and account figures. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [tab, setTab] = useState<TabId>('profile');
  if (!user) return null;

  const tabs: Array<TabItem<TabId>> = [
    { id: 'profile', label: t('profile.tabs.profile'), icon: UserIcon },
    { id: 'security', label: t('profile.tabs.security'), icon: Shield },
    { id: 'preferences', label: t('profile.tabs.preferences'), icon: Palette },
    { id: 'activity', label: t('profile.tabs.activity'), icon: Activity },
  ];
  const content = {
    profile: <ProfileDetailsTab user={user} />,
    security: <SecurityTab twoFactorEnabled={user.twoFactorEnabled} />,
    preferences: <PreferencesTab user={user} />,
    activity: <ActivityTab />,
  }[tab];

  return (
    <>
      <PageTitle title={t('profile.pageTitle')} />
      <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{t('profile.title')}</h1>
          <p className="mt-1 text-sm text-ink-muted">{t('profile.subtitle')}</p>
        </div>
        <ProfileSummary user={user} />
        <Tabs label={t('profile.tabs.label')} tabs={tabs} selected={tab} onSelect={setTab}>
          {content}
        </Tabs>
      </div>
    </>
  );
}
