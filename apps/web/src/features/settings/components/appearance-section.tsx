import { Monitor, Moon, Palette, Sun } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@cloudvault/contract/languages';
import type { Settings } from '@cloudvault/contract/settings';
import { cn } from '../../../lib/cn';
import type { ChangeSetting } from '../change-setting';
import { SettingRow } from './setting-row';
import { SettingSelect } from './setting-select';
import { SettingsSection } from './settings-section';

type Theme = Settings['appearance']['theme'];
const THEMES: ReadonlyArray<{ value: Theme; icon: typeof Sun }> = [
  { value: 'light', icon: Sun },
  { value: 'dark', icon: Moon },
  { value: 'system', icon: Monitor },
];

/** Theme and language of the whole interface. */
export function AppearanceSection({
  settings,
  busy,
  onChange,
}: {
  settings: Settings['appearance'];
  busy: boolean;
  onChange: ChangeSetting;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <SettingsSection
      id="appearance"
      icon={Palette}
      title={t('settings.appearance.title')}
      description={t('settings.appearance.description')}
    >
      <SettingRow
        labelId={`${id}-theme`}
        descriptionId={`${id}-theme-description`}
        label={t('settings.appearance.theme')}
        description={t('settings.appearance.themeDescription')}
        stack
      >
        <div
          role="radiogroup"
          aria-labelledby={`${id}-theme`}
          aria-describedby={`${id}-theme-description`}
          className="grid grid-cols-3 gap-1 rounded-control bg-surface-muted p-1 sm:w-72"
        >
          {THEMES.map(({ value, icon: Icon }) => {
            const selected = settings.theme === value;
            return (
              <label
                key={value}
                className={cn(
                  'relative flex h-9 cursor-pointer items-center justify-center gap-1.5 rounded-[calc(var(--radius-control)-2px)] text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                  selected ? 'bg-surface text-ink shadow-sm' : 'text-ink-muted hover:text-ink',
                )}
              >
                <input
                  type="radio"
                  name={`${id}-theme`}
                  value={value}
                  checked={selected}
                  disabled={busy}
                  onChange={() => onChange('appearance', 'theme', value)}
                  // Transparent over the whole label: the segment itself is the radio button.
                  className="absolute inset-0 cursor-pointer appearance-none opacity-0 disabled:cursor-not-allowed"
                />
                <Icon aria-hidden="true" className="size-4" />
                {t(`settings.appearance.themes.${value}`)}
              </label>
            );
          })}
        </div>
      </SettingRow>
      <SettingSelect
        label={t('settings.appearance.language')}
        description={t('settings.appearance.languageDescription')}
        value={settings.language}
        disabled={busy}
        options={LANGUAGES.map((language) => ({ value: language, label: t(`settings.appearance.languages.${language}`) }))}
        onChange={(language) => onChange('appearance', 'language', language)}
      />
    </SettingsSection>
  );
}
