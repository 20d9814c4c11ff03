import { catalogContracts } from '@debate/contracts';
import { ServiceClient } from '@debate/nest';
import { Query, Resolver } from '@nestjs/graphql';
import { Public } from '../auth/auth.decorators.js';
import { CatalogModel } from './models/catalog.model.js';

@Resolver(() => CatalogModel)
export class CatalogResolver {
  constructor(private readonly services: ServiceClient) {}

  @Public()
  @Query(() => CatalogModel)
  async catalog(): Promise<CatalogModel> {
    const [generation, community] = await Promise.all([
      this.services.request(catalogContracts.generationCatalog, {}),
      this.services.request(catalogContracts.categories, {}),
    ]);
    return { ...generation, categories: community.categories };
  }
}
