import { describe, expect, it } from '@jest/globals';
import { DEFAULT_VIEW, paramsOf, viewOf } from './RankingTab';

describe('the forum view in the address', () => {
  it('reads category, sort, period and Starred, and writes them back the same', () => {
    const params = new URLSearchParams(
      'category=Ethics&sort=most-popular&period=this-week&show=starred',
    );
    const view = viewOf(params);
    expect(view).toEqual({
      category: 'Ethics',
      sort: 'MOST_POPULAR',
      period: 'THIS_WEEK',
      starredOnly: true,
    });
    expect(paramsOf(view).toString()).toBe(params.toString());
  });

  it('leaves the defaults out, so the plain address is the default view', () => {
    expect(paramsOf(DEFAULT_VIEW).toString()).toBe('');
    expect(viewOf(new URLSearchParams())).toEqual(DEFAULT_VIEW);
  });

  it('reads what it does not know (an old or edited link) as the default', () => {
    expect(
      viewOf(new URLSearchParams('category=politics&sort=best&period=yesterday&show=mine')),
    ).toEqual(DEFAULT_VIEW);
  });
});
