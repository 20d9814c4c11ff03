import { api } from '../../app/api';

export interface Catalog {
  readonly categories: string[];
  readonly rhetoricStyles: string[];
  readonly debateFormats: string[];
  readonly models: string[];
  readonly roundTitles: string[];
  readonly topics: string[];
}

const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    catalog: build.query<Catalog, undefined>({
      query: () => ({
        query: `query Catalog {
          catalog { categories rhetoricStyles debateFormats models roundTitles topics }
        }`,
      }),
      transformResponse: (data: { catalog: Catalog }) => data.catalog,
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useCatalogQuery } = catalogApi;
