// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { PasswordField } from './password-field';

afterEach(cleanup);

describe('PasswordField', () => {
  it('hides the password until the toggle is pressed, then hides it again', async () => {
    const user = userEvent.setup();
    render(<PasswordField label="Password" />);
    const input = screen.getByLabelText('Password');
    await user.type(input, 'hunter22');

    expect(input).toHaveProperty('type', 'password');

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveProperty('type', 'text');
    expect(input).toHaveProperty('value', 'hunter22');

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveProperty('type', 'password');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
  });

  it('shows the hint, and the error in its place when there is one', () => {
    const { rerender } = render(<PasswordField label="Password" hint="At least 6 characters" />);
    const input = screen.getByLabelText('Password');
    expect(screen.getByText('At least 6 characters').id).toBe(input.getAttribute('aria-describedby'));

    rerender(<PasswordField label="Password" hint="At least 6 characters" error="Too short" />);
    expect(screen.queryByText('At least 6 characters')).toBeNull();
    expect(screen.getByRole('alert').textContent).toBe('Too short');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });
});
