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
      localModel {
        status
        name
        progress
      }
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
/** The catalogue as last received, asking nothing (what decides how often it is asked). */
export const useCatalogQueryState = catalogApi.endpoints.catalog.useQueryState;
