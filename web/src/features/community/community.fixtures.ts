import { offlineSpeaker as offline } from '../../test/written-by';
import type { CommunityDebate } from './community.api';

// What the community's tests read: a shared debate as the ranking lists it.

/** A shared debate the offline speaker wrote, its speakers given the catalogue's 'offline'. */
export const offlineDebate: CommunityDebate = {
  id: 'd1',
  topic: 'Should voting be compulsory?',
  categories: ['Politics'],
  userDisplayName: 'Ada',
  sharedAt: '2026-11-20T10:00:00.000Z',
  upvotes: 1,
  downvotes: 0,
  interesting: 0,
  views: 3,
  myVote: 'FOR',
  starred: false,
  model1: { name: 'offline', stance: 0.6, rhetoricStyle: 'standard', writtenBy: offline },
  model2: { name: 'offline', stance: -0.6, rhetoricStyle: 'standard', writtenBy: offline },
  verdict: null,
  mindsChanged: { readers: 0, shares: null },
  example: false,
  stopped: false,
  rating: { text: 'Rated' },
};
