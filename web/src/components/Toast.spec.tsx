import { describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { type ToastAction, toastTone, useToast } from './Toast';

describe(toastTone.name, () => {
  it.each([
    ['Debate saved to your history!', 'success'],
    ['Debate shared successfully! It will appear in Community Rankings.', 'success'],
    ['Failed to save debate. Please try again.', 'failure'],
    ['Failed to share debate. Please try again.', 'failure'],
  ])('shows "%s" as %s', (message, tone) => {
    expect(toastTone(message)).toBe(tone);
  });
});

/** A page with one button that puts up `message`, with `action` if given. */
function Page({ message, action }: { message: string; action?: ToastAction }) {
  const { toast, show } = useToast();
  return (
    <>
      <button type="button" onClick={() => show(message, action)}>
        Go
      </button>
      {toast}
    </>
  );
}

describe(useToast.name, () => {
  it('shows the message alone for three seconds', () => {
    jest.useFakeTimers();
    try {
      render(<Page message="Debate saved to your history!" />);
      fireEvent.click(screen.getByRole('button', { name: 'Go' }));
      expect(screen.getByRole('status').textContent).toBe('Debate saved to your history!');
      expect(screen.queryAllByRole('button')).toHaveLength(1);
      act(() => jest.advanceTimersByTime(2_999));
      expect(screen.getByRole('status').textContent).toBe('Debate saved to your history!');
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByRole('status').textContent).toBe('');
    } finally {
      jest.useRealTimers();
    }
  });

  it('gives its action a button after the message, and says what it did in its place', async () => {
    const run = jest.fn(async () => 'Link copied.');
    const message = 'Debate shared successfully! It will appear in Community Rankings.';
    render(<Page message={message} action={{ label: 'Copy link', run }} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    const status = screen.getByRole('status');
    expect(status.textContent).toBe(`${message}Copy link`);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    await screen.findByText('Link copied.');
    expect(run).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Copy link' })).toBeNull();
    expect(status.textContent).toBe(`${message}Link copied.`);
  });

  it('stays while the pointer is on it, and goes three seconds after it leaves', () => {
    jest.useFakeTimers();
    try {
      const message = 'Debate shared successfully! It will appear in Community Rankings.';
      render(<Page message={message} action={{ label: 'Copy link', run: async () => '' }} />);
      fireEvent.click(screen.getByRole('button', { name: 'Go' }));
      const toast = screen.getByText(message, { exact: false });
      fireEvent.pointerEnter(toast);
      act(() => jest.advanceTimersByTime(10_000));
      expect(screen.getByRole('status').textContent).toContain(message);
      fireEvent.pointerLeave(toast);
      act(() => jest.advanceTimersByTime(3_000));
      expect(screen.getByRole('status').textContent).toBe('');
    } finally {
      jest.useRealTimers();
    }
  });
});
