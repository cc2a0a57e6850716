// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs } from './tabs';

afterEach(cleanup);

function Harness() {
  const [tab, setTab] = useState<'a' | 'b' | 'c'>('a');
  return (
    <Tabs
      label="Sections"
      selected={tab}
      onSelect={setTab}
      tabs={[
        { id: 'a', label: 'Alpha' },
        { id: 'b', label: 'Beta' },
        { id: 'c', label: 'Gamma' },
      ]}
    >
      <p>Panel {tab}</p>
    </Tabs>
  );
}

describe('Tabs', () => {
  it('has one Tab stop; arrows, Home and End move and select; the panel follows', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    expect(screen.getByRole('tablist', { name: 'Sections' })).toBeTruthy();
    const alpha = screen.getByRole('tab', { name: 'Alpha' });
    expect(alpha.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Beta' }).tabIndex).toBe(-1);
    expect(screen.getByRole('tabpanel', { name: 'Alpha' }).textContent).toBe('Panel a');

    await user.tab();
    expect(document.activeElement).toBe(alpha);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Beta' }));
    expect(screen.getByRole('tabpanel', { name: 'Beta' }).textContent).toBe('Panel b');
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Gamma' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(alpha);
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Gamma' }));
    await user.keyboard('{Home}');
    expect(alpha.getAttribute('aria-selected')).toBe('true');

    // Tab leaves the list for the panel.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
  });

  it('selects on click', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('tab', { name: 'Gamma' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel c');
  });
});
