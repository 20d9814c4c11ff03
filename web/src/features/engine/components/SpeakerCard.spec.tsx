import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen } from '@testing-library/react';
import type { SpeakerSettingsInput } from '../../../gql/graphql';
import type { CatalogModel } from '../models';
import { SpeakerCard } from './SpeakerCard';

const models: CatalogModel[] = [
  { id: 'gpt-4o', label: 'GPT-4o', kind: 'model', status: 'ok', speakerMode: 'single' },
  {
    id: 'llama',
    label: 'Llama 3.1 (Ollama)',
    kind: 'model',
    status: 'degraded',
    speakerMode: 'single',
  },
  { id: 'offline', label: 'Offline speaker', kind: 'offline', status: 'ok', speakerMode: 'single' },
];

function renderCard(model: string, onChange = jest.fn<(settings: SpeakerSettingsInput) => void>()) {
  const { unmount } = render(
    <SpeakerCard
      name="First Speaker"
      settings={{ model, stance: 0.6, rhetoricStyle: 'standard', personality: '' }}
      models={models}
      rhetoricStyles={['standard']}
      disabled={false}
      onChange={onChange}
    />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
  return { select: screen.getByLabelText<HTMLSelectElement>('Model'), onChange, unmount };
}

describe(SpeakerCard.name, () => {
  it('lists the catalogue’s models by label, their ids as values, a failing one said so', () => {
    const { select } = renderCard('gpt-4o');
    expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([
      ['gpt-4o', 'GPT-4o'],
      ['llama', 'Llama 3.1 (Ollama) (failing lately)'],
      ['offline', 'Offline speaker'],
    ]);
  });

  it('shows the speaker’s own choice, and the catalogue’s first for one it does not offer', () => {
    const own = renderCard('offline');
    expect(own.select.value).toBe('offline');
    own.unmount();
    expect(renderCard('gpt-4').select.value).toBe('gpt-4o');
  });

  it('opens its Settings as a section, announced expanded, controlling the part it shows', () => {
    render(
      <SpeakerCard
        name="Second Speaker"
        settings={{ model: 'gpt-4o', stance: -0.6, rhetoricStyle: 'standard', personality: '' }}
        models={models}
        rhetoricStyles={['standard']}
        disabled={false}
        onChange={jest.fn()}
      />,
    );
    const toggle = screen.getByRole('button', { name: 'Settings' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Model')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const part = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(part?.contains(screen.getByLabelText('Model'))).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByLabelText('Model')).toBeNull();
  });

  it('names each rhetoric style readably, says what the chosen one does, and hands back its value', () => {
    const onChange = jest.fn<(settings: SpeakerSettingsInput) => void>();
    render(
      <SpeakerCard
        name="First Speaker"
        settings={{ model: 'gpt-4o', stance: 0.6, rhetoricStyle: 'factual', personality: '' }}
        models={models}
        rhetoricStyles={['standard', 'formal', 'factual', 'adversarial']}
        disabled={false}
        onChange={onChange}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const select = screen.getByRole<HTMLSelectElement>('combobox', {
      name: 'Rhetoric style',
      description: 'Facts, figures and evidence, without emotional appeals.',
    });
    expect([...select.options].map((option) => [option.value, option.textContent])).toEqual([
      ['standard', 'Standard'],
      ['formal', 'Formal'],
      ['factual', 'Factual'],
      ['adversarial', 'Adversarial'],
    ]);
    fireEvent.change(select, { target: { value: 'adversarial' } });
    expect(onChange).toHaveBeenCalledWith(
      expect.objectContaining({ rhetoricStyle: 'adversarial' }),
    );
  });

  it('hands back the id of the model picked', () => {
    const { select, onChange } = renderCard('gpt-4o');
    fireEvent.change(select, { target: { value: 'offline' } });
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ model: 'offline' }));
  });
});
