import { api, operation } from '../../app/api';
import { graphql } from '../../gql/gql';
import type { CatalogQuery } from '../../gql/graphql';

const CatalogDocument = graphql(`
  query Catalog {
    catalog {
      categories
      rhetoricStyles
      debateFormats
      models {
        id
        label
        kind
        status
        speakerMode
      }
      searcher
      roundTitles
      topics
    }
  }
`);

const catalogApi = api.injectEndpoints({
  endpoints: (build) => ({
    catalog: build.query<CatalogQuery['catalog'], undefined>({
      query: () => operation(CatalogDocument),
      transformResponse: (data: CatalogQuery) => data.catalog,
      keepUnusedDataFor: 3600,
    }),
  }),
});

export const { useCatalogQuery } = catalogApi;
