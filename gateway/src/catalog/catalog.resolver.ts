import { catalogContracts, debateCategories } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/auth.decorators.js';
import { CatalogModel } from './catalog.models.js';

/**
 * The generation service's catalog, and the categories a debate is filed under. The categories
 * are a constant of the contracts: the gateway answers them itself, no service is asked.
 */
@Resolver(() => CatalogModel)
export class CatalogResolver {
  constructor(private readonly services: ServiceClient) {}

  @Public()
  @Query(() => CatalogModel)
  async catalog(): Promise<CatalogModel> {
    const generation = await this.services.request(catalogContracts.generationCatalog, {});
    return { ...generation, categories: [...debateCategories] };
  }

  @Public()
  @Query(() => [String], {
    description: 'The ten categories a debate can be filed under, in the order filters list them.',
  })
  categories(): string[] {
    return [...debateCategories];
  }
}
