/** The ten categories a debate can be filed under, in the order the filter lists them. */
export const categories = [
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
] as const;
