import { describe, expect, it } from '@jest/globals';
import { CategoriesController } from './categories.controller.js';

describe(CategoriesController.name, () => {
  it('lists the ten categories in the order of the ranking filter', () => {
    const sut = new CategoriesController();
    expect(sut.list().categories).toEqual([
      'Politics',
      'Technology',
      'Philosophy',
      'Science',
      'Society',
      'Economics',
      'Environment',
      'Ethics',
      'Culture',
      'Funny',
    ]);
  });
});
