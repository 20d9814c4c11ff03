import type { SpeakerChunk, TurnRequest } from './speaker.js';

/** The second speaker's rebuttal, after the first speaker's opening: what the speaker specs ask. */
export const rebuttalRequest: TurnRequest = {
  topic: 'Should cities ban cars?',
  debateFormat: 'oxford',
  moderatorEnabled: false,
  speaker: 'Second Speaker',
  settings: { model: 'large', stance: -0.6, rhetoricStyle: 'factual', personality: 'a cyclist' },
  round: 2,
  roundTitle: 'Rebuttal',
  earlier: [
    {
      speaker: 'First Speaker',
      round: 1,
      roundTitle: 'Constructive Arguments',
      text: 'Cars choke our streets.',
      summary: 'Cars choke streets.',
    },
  ],
};

/** Everything a speaker yields for one turn. */
export async function collect(stream: AsyncIterable<SpeakerChunk>): Promise<SpeakerChunk[]> {
  const chunks: SpeakerChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
